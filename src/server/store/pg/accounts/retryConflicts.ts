/** serialization_failure and deadlock_detected: the transaction was rolled back and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01'])

const codeOf = (err: unknown): unknown =>
  typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined

/**
 * Runs a transaction again when PostgreSQL rolled it back for a deadlock or a serialisation
 * failure (another server touched the same rows in another order), up to `tries` times.
 */
export async function retryConflicts<T>(run: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (err) {
      if (attempt >= tries || !RETRYABLE.has(String(codeOf(err)))) throw err
    }
  }
}
