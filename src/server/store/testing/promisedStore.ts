import type { AppStore } from '../AppStore'
import type { SqliteStore } from '../sqliteStore'

/** Feature-side areas of the store whose methods answer promises too. */
const AREAS = new Set(['grids', 'feeds', 'ogc'])
/** Members that stay as they are: synchronous in the interface, or already asynchronous. */
const KEEP = new Set(['dataset', 'catalog', 'transaction', 'aggregateZooms', 'constructor'])

/** Runs `fn` now and settles with its outcome on a later turn of the event loop (as I/O would). */
function later<T>(fn: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    try {
      const out = fn()
      setImmediate(() => resolve(out))
    } catch (err) {
      setImmediate(() => reject(err instanceof Error ? err : new Error(String(err))))
    }
  })
}

function promised<T extends object>(target: T, top: boolean): T {
  return new Proxy(target, {
    get(t, key) {
      if (top && key === 'location') return null
      const value: unknown = Reflect.get(t, key, t)
      if (typeof key !== 'string') return value
      if (top && AREAS.has(key) && typeof value === 'object' && value !== null) return promised(value, false)
      if (typeof value !== 'function' || KEEP.has(key)) return value
      return (...args: unknown[]) => later(() => (value as (...a: unknown[]) => unknown).apply(t, args))
    },
  })
}

/**
 * The SQLite store as the PostgreSQL store looks to its callers: every feature-side method
 * (features, series, meta, grids, feeds, OGC reader, freshness) answers a promise settled on a
 * later turn of the event loop, and there is no file (`location` null), so tiles, exports and
 * feed imports take their in-process paths. The accounts areas are the SQLite ones, unchanged.
 * For tests of the callers: same data, same answers, asynchronous.
 */
export function promisedStore(store: SqliteStore): AppStore {
  return promised(store, true)
}
