import pg from 'pg'
import { ADVISORY_LOCK_SPACE } from '../store/pg/pgDatabase'

/** Second key of the first-start lock: (ADVISORY_LOCK_SPACE, 1002). */
export const START_LOCK = 1002

/**
 * Runs `fn` (first member, demo seed) holding the session advisory lock (ADVISORY_LOCK_SPACE,
 * START_LOCK) on a connection of its own, so servers starting together on an empty database
 * create the first member and seed once: the others wait, then find it done.
 */
export async function withStartLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'emberline-start' })
  client.on('error', () => undefined)
  await client.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [ADVISORY_LOCK_SPACE, START_LOCK])
    return await fn()
  } finally {
    // Ending the session releases the lock too.
    await client.end().catch(() => undefined)
  }
}
