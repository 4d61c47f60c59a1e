import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { MIGRATIONS_DIR, migrate, migrationFiles } from './migrate'

/** The members' own database: identity, sessions, tokens, throttles, audit, preferences, alert acks. */
export const ACCOUNTS_FILE = 'accounts.sqlite'
export const ACCOUNTS_MIGRATIONS_DIR = path.join(MIGRATIONS_DIR, 'accounts')

/** Tables that lived in the feature store before the accounts database existed (parents first). */
const LEGACY_TABLES = [
  'identity_members',
  'identity_sessions',
  'identity_intermediate_sessions',
  'identity_otp_codes',
  'identity_reset_tokens',
  'identity_throttle',
  'identity_signing_keys',
  'identity_audit',
  'member_preferences',
  'alert_acks',
]

const tableExists = (db: Database.Database, schema: string, name: string) =>
  db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = ?`).get(name) !==
  undefined

/**
 * A feature store from before the accounts database recorded the accounts' migrations in its own
 * `schema_migrations`, and the two folders share numbers (150: the accounts' psps_events, the
 * store's fire_runs): the store's own migration of that number would count as applied and never
 * run. Their records go before the store migrates (matched by number and name, so none of the
 * store's own is touched); the tables themselves move to the accounts database (openAccountsDb).
 */
export function forgetAccountsMigrations(db: Database.Database): void {
  if (!tableExists(db, 'main', 'schema_migrations')) return
  const forget = db.prepare('DELETE FROM schema_migrations WHERE version = ? AND name = ?')
  for (const m of migrationFiles(ACCOUNTS_MIGRATIONS_DIR)) forget.run(m.version, m.name)
}

/**
 * Opens (creating and migrating) the accounts database of a data directory, or an in-memory one
 * when `dataDir` is null. Sign-in, session checks and audit write here and nowhere else, so a
 * dataset import holding the feature store's write lock never makes them wait (issue: sign-ins
 * failed with `database is locked` during a 700,000-building import). A store from before this
 * split keeps its members: their rows move here from `legacyFile` at the first open.
 */
export function openAccountsDb(dataDir: string | null, legacyFile?: string): Database.Database {
  const db = new Database(dataDir === null ? ':memory:' : path.join(dataDir, ACCOUNTS_FILE))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  // Only members' own small writes meet here; never a long wait on the event loop.
  db.pragma('busy_timeout = 1000')
  migrate(db, ACCOUNTS_MIGRATIONS_DIR)
  if (legacyFile && fs.existsSync(legacyFile)) moveLegacyRows(db, legacyFile)
  return db
}

/** Copies the member tables of an older feature store here (once), then drops them there. */
function moveLegacyRows(db: Database.Database, legacyFile: string): void {
  db.prepare('ATTACH DATABASE ? AS legacy').run(legacyFile)
  try {
    if (!tableExists(db, 'legacy', 'identity_members')) return
    const members = Number(db.prepare('SELECT count(*) FROM main.identity_members').pluck().get())
    // Only into an empty accounts database: rows already here are never mixed with old ones.
    if (members > 0) return
    db.transaction(() => {
      for (const t of LEGACY_TABLES) {
        if (tableExists(db, 'legacy', t)) db.exec(`INSERT INTO main.${t} SELECT * FROM legacy.${t}`)
      }
    })()
    // Copied: the old copies go (children first), so password hashes and session tokens live in
    // one place only.
    for (const t of [...LEGACY_TABLES].reverse()) {
      if (tableExists(db, 'legacy', t)) db.exec(`DROP TABLE legacy.${t}`)
    }
  } finally {
    db.exec('DETACH DATABASE legacy')
  }
}
