/** U+0000 and half a surrogate pair: text PostgreSQL's json and jsonb refuse. */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const storable = (s: string): string => s.replace(UNSTORABLE, '\uFFFD')

/**
 * JSON text for a json/jsonb parameter. PostgreSQL refuses `\u0000` and a lone surrogate escape in
 * JSON (SQLite keeps any text), so in strings and keys they become U+FFFD instead of failing the
 * statement (a 500 for whatever a client sent).
 */
export function pgJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string') return storable(v)
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [storable(k), x]))
    return v
  })
}
