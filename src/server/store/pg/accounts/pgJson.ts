/**
 * JSON text for a jsonb parameter. jsonb refuses `\u0000` in a string, so a NUL in a string value
 * becomes U+FFFD (see pgParams).
 */
export function pgJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' && v.includes('\0') ? v.replaceAll('\0', '\uFFFD') : v,
  )
}
