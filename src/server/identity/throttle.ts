import type { IdentityTokenStore } from '../store/identityTokenStore'

export interface ThrottlePolicy {
  windowMinutes: number
  lockMinutes: number
}

/**
 * Failure counters with lockout: `max` failures inside the window lock the key for
 * lockMinutes. Keys are e.g. `email:<address>` (also for unknown addresses, so locking
 * reveals nothing) and `ip:<address>`. Counters live in the store so restarts keep them.
 */
export function createThrottle(tokens: IdentityTokenStore, policy: ThrottlePolicy) {
  const windowMs = policy.windowMinutes * 60_000
  const lockMs = policy.lockMinutes * 60_000
  return {
    /** Milliseconds left on the lock, 0 when the key may try. */
    lockedFor(key: string, now: number): number {
      const r = tokens.throttle(key)
      return r && r.lockedUntil > now ? r.lockedUntil - now : 0
    },
    /** Counts one failure; returns true when this failure locked the key. */
    fail(key: string, max: number, now: number): boolean {
      const r = tokens.throttle(key)
      const fresh = !r || now - r.windowStart >= windowMs
      const failures = fresh ? 1 : r.failures + 1
      if (failures >= max) {
        tokens.putThrottle(key, { failures: 0, windowStart: now, lockedUntil: now + lockMs })
        return true
      }
      tokens.putThrottle(key, {
        failures,
        windowStart: fresh ? now : r.windowStart,
        lockedUntil: r?.lockedUntil ?? 0,
      })
      return false
    },
    clear(key: string): void {
      tokens.clearThrottle(key)
    },
  }
}

export type Throttle = ReturnType<typeof createThrottle>
