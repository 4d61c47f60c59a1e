import { AsyncLocalStorage } from 'node:async_hooks'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { migrationFiles } from '../migrate'

/** The PostgreSQL migrations: `data/` (features, series, grids, feeds) and `accounts/` (members…). */
export const PG_MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations')

/** One key for every Emberline advisory lock: migrations take (MIGRATION_LOCK, 0). */
export const ADVISORY_LOCK_SPACE = 0x454d42 // "EMB"
const MIGRATION_LOCK = 1

// bigint (count(*), int8 columns) as a JS number: our counts and ids stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v))
// numeric (sum(), avg()) as a number too.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v))

export type Queryable = Pick<pg.PoolClient, 'query'>

/**
 * The shared PostgreSQL database of every server process: a pool, `query` helpers and
 * transactions. Inside `tx(fn)` every query made by `fn` (and whatever it awaits) runs on the
 * transaction's own client (AsyncLocalStorage), so store methods compose into one transaction
 * without passing a client around.
 */
export class PgDatabase {
  private readonly txClient = new AsyncLocalStorage<pg.PoolClient>()

  constructor(readonly pool: pg.Pool) {}

  /** The client of the current transaction, or the pool. */
  private get runner(): Queryable {
    return this.txClient.getStore() ?? this.pool
  }

  /** Rows of a query (objects keyed by column name). */
  async query<R extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<R[]> {
    const res = await this.runner.query<R>(sql, params as unknown[])
    return res.rows
  }

  /** Rows of a query as arrays of column values, in select order. */
  async rows(sql: string, params: readonly unknown[] = []): Promise<unknown[][]> {
    const res = await this.runner.query<unknown[]>({
      text: sql,
      values: params as unknown[],
      rowMode: 'array',
    })
    return res.rows
  }

  /** The first row, or undefined. */
  async one<R extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<R | undefined> {
    return (await this.query<R>(sql, params))[0]
  }

  /** Runs a statement; returns the number of rows it touched. */
  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    const res = await this.runner.query(sql, params as unknown[])
    return res.rowCount ?? 0
  }

  /** True inside `tx()`. */
  get inTransaction(): boolean {
    return this.txClient.getStore() !== undefined
  }

  /**
   * Runs `fn` in one transaction (all or nothing). Nested calls join the outer transaction.
   * `isolation` is used by callers that need serialisable counters.
   */
  async tx<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn()
    const client = await this.pool.connect()
    try {
      await client.query('BEGIN')
      const out = await this.txClient.run(client, fn)
      await client.query('COMMIT')
      return out
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw err
    } finally {
      client.release()
    }
  }

  /**
   * Runs `fn` with one client: the current transaction's inside `tx()` (a COPY then joins it),
   * otherwise one taken from the pool for the call.
   */
  async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const inTx = this.txClient.getStore()
    if (inTx) return fn(inTx)
    const client = await this.pool.connect()
    try {
      return await fn(client)
    } finally {
      client.release()
    }
  }

  /** A dedicated client outside the pool's rotation (COPY streams, LISTEN, session advisory locks). */
  connect(): Promise<pg.PoolClient> {
    return this.pool.connect()
  }

  async close(): Promise<void> {
    await this.pool.end()
  }
}

export interface PgOptions {
  /** postgres://user@host:port/db */
  url: string
  /** Pool size per server process (default 10). */
  max?: number
  applicationName?: string
}

/** A pool on DATABASE_URL (no connection is made until the first query). */
export function pgDatabase(opts: PgOptions): PgDatabase {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'emberline',
    idleTimeoutMillis: 30_000,
  })
  // An idle client's connection dropped by the server (restart, failover) must not end the process.
  pool.on('error', () => undefined)
  return new PgDatabase(pool)
}

/**
 * Applies every `NNN_name.sql` of `data/` then `accounts/` not yet recorded in
 * `schema_migrations` (keyed by folder and number), each in its own transaction, under one
 * session advisory lock: servers starting together wait for each other and migrate once.
 * Returns the migrations applied ("data/001", …).
 */
export async function migratePg(db: PgDatabase, dir = PG_MIGRATIONS_DIR): Promise<string[]> {
  const client = await db.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [ADVISORY_LOCK_SPACE, MIGRATION_LOCK])
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        area text NOT NULL, version integer NOT NULL, name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (area, version))`)
      const done = new Set(
        (
          await client.query<{ k: string }>(
            `SELECT area || '/' || lpad(version::text, 3, '0') AS k FROM schema_migrations`,
          )
        ).rows.map((r) => r.k),
      )
      const applied: string[] = []
      for (const area of ['data', 'accounts']) {
        const areaDir = path.join(dir, area)
        if (!fs.existsSync(areaDir)) continue
        for (const m of migrationFiles(areaDir)) {
          const key = `${area}/${String(m.version).padStart(3, '0')}`
          if (done.has(key)) continue
          const sql = fs.readFileSync(path.join(areaDir, m.file), 'utf8')
          await client.query('BEGIN')
          try {
            await client.query(sql)
            await client.query('INSERT INTO schema_migrations (area, version, name) VALUES ($1, $2, $3)', [
              area,
              m.version,
              m.name,
            ])
            await client.query('COMMIT')
          } catch (err) {
            await client.query('ROLLBACK').catch(() => undefined)
            throw new Error(
              `migration ${area}/${m.file} failed: ${err instanceof Error ? err.message : String(err)}`,
            )
          }
          applied.push(key)
        }
      }
      return applied
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [ADVISORY_LOCK_SPACE, MIGRATION_LOCK])
    }
  } finally {
    client.release()
  }
}
