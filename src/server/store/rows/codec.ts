import { pgJson } from '../pg/accounts/pgJson'

/**
 * How one dialect hands a column to and from its driver: the one place where SQLite and
 * PostgreSQL rows differ. The row shapes and mappers of `rows/*Rows.ts` read and write every such
 * column through a codec, so both stores share them.
 *
 * - JSON: SQLite holds text (parsed here), PostgreSQL jsonb (the driver has parsed it). As a
 *   parameter both take JSON text; PostgreSQL's has U+0000 and lone surrogates replaced (`pgJson`),
 *   which jsonb refuses and SQLite keeps.
 * - Booleans: SQLite holds 0/1, PostgreSQL boolean.
 */
export interface ColumnCodec {
  readonly dialect: 'sqlite' | 'postgres'
  /** A JSON column as read (a corrupt SQLite text throws, as JSON.parse does). */
  json(column: unknown): unknown
  /** A JSON column as read, with an unreadable SQLite text read as null. */
  jsonOrNull(column: unknown): unknown
  /** A value as the parameter of a JSON column. */
  jsonParam(value: unknown): string
  /** A boolean column as read. */
  bool(column: unknown): boolean
  /** A boolean as the parameter of a boolean column. */
  boolParam(value: boolean): number | boolean
}

function parseOrNull(text: unknown): unknown {
  if (typeof text !== 'string') return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

export const sqliteCodec: ColumnCodec = {
  dialect: 'sqlite',
  json: (column) => JSON.parse(column as string) as unknown,
  jsonOrNull: parseOrNull,
  jsonParam: (value) => JSON.stringify(value),
  bool: (column) => column === 1 || column === true,
  boolParam: (value) => (value ? 1 : 0),
}

export const pgCodec: ColumnCodec = {
  dialect: 'postgres',
  json: (column) => column,
  jsonOrNull: (column) => column ?? null,
  jsonParam: pgJson,
  bool: (column) => column === true,
  boolParam: (value) => value,
}

/** The SQL dialects of the two stores. */
export type Dialect = ColumnCodec['dialect']

/** The placeholder of parameter `i` (0-based): `?` in SQLite, `$i+1` in PostgreSQL. */
export function placeholder(dialect: Dialect, i: number): string {
  return dialect === 'sqlite' ? '?' : `$${i + 1}`
}

/** `INSERT INTO table (columns) VALUES (…)` with the dialect's placeholders (`?` or `$1…$n`). */
export function insertInto(codec: ColumnCodec, table: string, columns: readonly string[]): string {
  const marks = columns.map((_, i) => placeholder(codec.dialect, i))
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${marks.join(',')})`
}

/**
 * `insertInto` that replaces the row whose `key` conflicts (every other column from the new row):
 * the same `ON CONFLICT … DO UPDATE` in both dialects.
 */
export function upsertInto(
  codec: ColumnCodec,
  table: string,
  columns: readonly string[],
  key: string,
): string {
  const set = columns.filter((c) => c !== key).map((c) => `${c} = excluded.${c}`)
  return `${insertInto(codec, table, columns)} ON CONFLICT (${key}) DO UPDATE SET ${set.join(', ')}`
}

/** `UPDATE table SET column = …, … WHERE key = …` with the dialect's placeholders (the key's last). */
export function updateWhere(
  codec: ColumnCodec,
  table: string,
  columns: readonly string[],
  key: string,
): string {
  const mark = (i: number) => placeholder(codec.dialect, i)
  const set = columns.map((c, i) => `${c} = ${mark(i)}`)
  return `UPDATE ${table} SET ${set.join(', ')} WHERE ${key} = ${mark(columns.length)}`
}
