import pg from 'pg'
import type { Catalog } from './catalog'
import { openPgStore, type PgStore } from './pg/pgStore'
import { openStore, type SqliteStore } from './sqliteStore'
import { redactedUrl, StoreSetupError, storeSettings, type StoreSettings } from './storeSettings'

export { StoreSetupError, storeSettings, type StoreSettings } from './storeSettings'

/** The store the environment selects, opened, with what the server and the CLIs need around it. */
export type OpenedStore =
  | { kind: 'sqlite'; store: SqliteStore; settings: StoreSettings & { kind: 'sqlite' } }
  | {
      kind: 'postgres'
      store: PgStore
      settings: StoreSettings & { kind: 'postgres' }
      /** DATABASE_URL without its password (logs). */
      where: string
    }

/** How long to wait for the database to accept a connection at start. */
const CONNECT_TIMEOUT_MS = 10_000

/** One line saying why the database cannot be used (no stack trace, no password). */
function setupError(url: string, err: unknown): StoreSetupError {
  const e = err as { message?: string; code?: string }
  const message = (e.message ?? String(err)).split('\n')[0] ?? ''
  return new StoreSetupError(
    `cannot use the database at ${redactedUrl(url)}: ${message || e.code || 'error'}`,
  )
}

/** Connects once (SELECT 1) so an unreachable database fails fast with a clear line. */
async function reach(url: string): Promise<void> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'emberline-start',
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
    await client.query('SELECT 1')
  } finally {
    await client.end().catch(() => undefined)
  }
}

/**
 * Opens the store `STORE` selects: SQLite in DATA_DIR (default), or PostgreSQL on DATABASE_URL
 * (migrated under an advisory lock, so servers starting together migrate once). Throws a
 * StoreSetupError with one line for the operator when the settings are wrong or the database
 * cannot be reached or migrated.
 */
export async function openAppStore(
  env: NodeJS.ProcessEnv,
  catalog: Catalog,
  opts: { dataDir?: string; applicationName?: string } = {},
): Promise<OpenedStore> {
  const settings = storeSettings(env, opts.dataDir)
  if (settings.kind === 'sqlite')
    return { kind: 'sqlite', store: openStore(settings.dataDir, catalog), settings }
  try {
    await reach(settings.url)
    const store = await openPgStore(settings.url, catalog, {
      max: settings.poolSize,
      applicationName: opts.applicationName ?? 'emberline',
    })
    return { kind: 'postgres', store, settings, where: redactedUrl(settings.url) }
  } catch (err) {
    throw setupError(settings.url, err)
  }
}

/**
 * openAppStore for an entry point (server or CLI): a StoreSetupError prints `emberline: <line>`
 * on stderr and exits 1; anything else is a bug and is thrown.
 */
export async function openAppStoreOrExit(
  env: NodeJS.ProcessEnv,
  catalog: Catalog,
  opts: { dataDir?: string; applicationName?: string } = {},
): Promise<OpenedStore> {
  try {
    return await openAppStore(env, catalog, opts)
  } catch (err) {
    if (!(err instanceof StoreSetupError)) throw err
    process.stderr.write(`emberline: ${err.message}\n`)
    process.exit(1)
  }
}
