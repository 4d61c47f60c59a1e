import path from 'node:path'

/** Where the server and the CLIs keep their data: SQLite under DATA_DIR, or one shared PostgreSQL. */
export type StoreSettings =
  | { kind: 'sqlite'; dataDir: string }
  | {
      kind: 'postgres'
      /** DATABASE_URL (postgres://user:password@host:port/database). */
      url: string
      /** DATABASE_POOL_SIZE: connections of this process's pool (default 10). */
      poolSize: number
      /** Local scratch only (outbox files, caches): never shared state. */
      dataDir: string
    }

/** An operator's configuration mistake or an unreachable database: one line, no stack trace. */
export class StoreSetupError extends Error {}

export const DEFAULT_POOL_SIZE = 10

/**
 * The store the environment asks for: `STORE=sqlite` (default; DATA_DIR, default ./var) or
 * `STORE=postgres` with `DATABASE_URL` (and optionally `DATABASE_POOL_SIZE`). `dataDir` overrides
 * DATA_DIR (the CLIs' --data-dir). Throws a StoreSetupError naming the variable to fix.
 */
export function storeSettings(env: NodeJS.ProcessEnv, dataDir?: string): StoreSettings {
  const dir = path.resolve(dataDir ?? env.DATA_DIR ?? './var')
  const kind = (env.STORE ?? 'sqlite').trim().toLowerCase()
  if (kind === 'sqlite' || kind === '') return { kind: 'sqlite', dataDir: dir }
  if (kind !== 'postgres' && kind !== 'postgresql')
    throw new StoreSetupError(`STORE must be sqlite or postgres, got '${env.STORE ?? ''}'`)
  const url = env.DATABASE_URL?.trim()
  if (!url)
    throw new StoreSetupError(
      'STORE=postgres needs DATABASE_URL (postgres://user:password@host:5432/database)',
    )
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new StoreSetupError('DATABASE_URL is not a URL (postgres://user:password@host:5432/database)')
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new StoreSetupError(`DATABASE_URL must start with postgres://, got ${parsed.protocol}//`)
  const poolSize = Number(env.DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE)
  if (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000)
    throw new StoreSetupError(
      `DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got '${env.DATABASE_POOL_SIZE ?? ''}'`,
    )
  return { kind: 'postgres', url, poolSize, dataDir: dir }
}

/** The URL without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return 'DATABASE_URL'
  }
}
