import fs from 'node:fs'
import path from 'node:path'
import type Database from 'better-sqlite3'

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations')
const FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/

/**
 * Applies every `NNN_name.sql` in the migrations folder not yet recorded in
 * `schema_migrations`, in number order, each in its own transaction. Returns the versions applied.
 */
export function migrate(db: Database.Database, dir = MIGRATIONS_DIR): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`)
  const isDone = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck()
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  const applied: number[] = []
  for (const m of migrationFiles(dir)) {
    if (isDone.get(m.version) !== undefined) continue
    const sql = fs.readFileSync(path.join(dir, m.file), 'utf8')
    // IMMEDIATE takes the write lock before looking again: another process (a server and the
    // import CLI started together on a fresh file) may have applied this migration meanwhile.
    const ran = db
      .transaction(() => {
        if (isDone.get(m.version) !== undefined) return false
        db.exec(sql)
        record.run(m.version, m.name, new Date().toISOString())
        return true
      })
      .immediate()
    if (ran) applied.push(m.version)
  }
  return applied
}

/** The `NNN_name.sql` files of a migrations folder in number order (two sharing a number: an error). */
export function migrationFiles(dir: string): { file: string; version: number; name: string }[] {
  const files = fs
    .readdirSync(dir)
    .map((f) => ({ f, m: FILE.exec(f) }))
    .filter((x): x is { f: string; m: RegExpExecArray } => x.m !== null)
    .map(({ f, m }) => ({ file: f, version: Number(m[1]), name: m[2] ?? '' }))
    .sort((a, b) => a.version - b.version)
  const seen = new Map<number, string>()
  for (const m of files) {
    const other = seen.get(m.version)
    if (other) throw new Error(`migrations ${other} and ${m.file} share number ${m.version}`)
    seen.set(m.version, m.file)
  }
  return files
}
