import type { PgDatabase } from '../pgDatabase'

/** The statements of the PostgreSQL accounts stores: PgDatabase's helpers with NUL-safe parameters. */
export type AccountsSql = Pick<PgDatabase, 'query' | 'one' | 'run' | 'tx'>

/** A string as PostgreSQL text stores it (U+0000 → U+FFFD), for keys compared after a round trip. */
export const storableText = (s: string): string => (s.includes('\0') ? s.replaceAll('\0', '\uFFFD') : s)

const cleanText = (p: unknown): unknown => (typeof p === 'string' ? storableText(p) : p)

/** Strings and arrays of strings (`= ANY($1::text[])`) lose their NULs. */
const clean = (params: readonly unknown[]): unknown[] =>
  params.map((p) => (Array.isArray(p) ? p.map(cleanText) : cleanText(p)))

/**
 * `db` whose statements accept any string a client sent: PostgreSQL text cannot hold U+0000
 * (SQLite's can), so a NUL becomes U+FFFD instead of failing the statement (a 500). Such a value
 * never matches a stored one, as it would not in SQLite either.
 */
export function nulSafe(db: PgDatabase): AccountsSql {
  return {
    query: <R extends object = Record<string, unknown>>(sql: string, params: readonly unknown[] = []) =>
      db.query<R>(sql, clean(params)),
    one: <R extends object = Record<string, unknown>>(sql: string, params: readonly unknown[] = []) =>
      db.one<R>(sql, clean(params)),
    run: (sql: string, params: readonly unknown[] = []) => db.run(sql, clean(params)),
    tx: <T>(fn: () => Promise<T>) => db.tx(fn),
  }
}
