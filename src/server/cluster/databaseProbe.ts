import pg from 'pg'

/**
 * The readiness probe's own connection to the database (a pool of one, reconnecting after a
 * failure): `probe()` answers when a `SELECT 1` does. Apart from the request pool, so a server
 * whose pool is busy under load is not reported as unable to reach its database.
 */
export function databaseProbe(url: string): { probe: () => Promise<unknown>; close: () => Promise<void> } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    application_name: 'emberline-ready',
    connectionTimeoutMillis: 2000,
    query_timeout: 2000,
  })
  // A dropped idle connection is replaced at the next probe; it must not end the process.
  pool.on('error', () => undefined)
  return { probe: () => pool.query('SELECT 1'), close: () => pool.end() }
}
