/**
 * What a store method returns: the value itself (the embedded SQLite store answers synchronously)
 * or a promise of it (the PostgreSQL store). Callers always `await` it.
 */
export type Awaitable<T> = T | Promise<T>
