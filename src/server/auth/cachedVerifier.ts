import type { SessionVerifier, VerifiedSession } from './sessionVerifier'

export interface VerifierCacheOptions {
  /**
   * Changes whenever what the verifier read may have changed (for the bundled provider: any
   * commit to the accounts database, by any process). A changed stamp empties the cache. Absent
   * when no such stamp exists (a PostgreSQL accounts store shared by several servers): then
   * nothing is cached and every request is verified against the database.
   */
  stamp?: () => number
  /** The clock sessions expire by (ms). */
  now(): number
  /** Which credentials may be cached (the bundled provider: opaque tokens, not JWTs). */
  cacheable(credential: string): boolean
  /** Most credentials kept (a full cache starts over). */
  maxEntries?: number
}

/**
 * The session check without its database reads on repeats: a credential's verified session is
 * kept while the stamp stays the same and the session has not expired. The stamp is read on every
 * request, so the cache never outlives a revoke, a disabled member or a role change (#15: a
 * revoked session is refused at once), by this server or another process on the same database.
 * Without a stamp the verifier is `inner` itself: no cache can outlive a revoke.
 */
export function cachedVerifier(inner: SessionVerifier, opts: VerifierCacheOptions): SessionVerifier {
  const readStamp = opts.stamp
  if (!readStamp) return inner
  const max = opts.maxEntries ?? 10_000
  let stamp = Number.NaN
  let cache = new Map<string, VerifiedSession>()
  return {
    async verify(credential) {
      const now = readStamp()
      if (now !== stamp) {
        stamp = now
        if (cache.size > 0) cache = new Map()
      }
      const hit = cache.get(credential)
      if (hit && hit.expiresAt.getTime() > opts.now()) return hit
      const session = await inner.verify(credential)
      // Kept only if nothing was written meanwhile (the read and the stamp belong together).
      if (session && opts.cacheable(credential) && readStamp() === stamp) {
        if (cache.size >= max) cache = new Map()
        cache.set(credential, session)
      }
      return session
    },
  }
}
