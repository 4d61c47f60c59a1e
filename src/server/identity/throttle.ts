import type { IdentityTokenStore, ThrottleOutcome } from '../store/identityTokenStore'

export interface ThrottlePolicy {
  windowMinutes: number
  lockMinutes: number
}

/** A counter to bump on an attempt: `max` failures inside the window lock `key`. */
export interface ThrottleCount {
  key: string
  max: number
}

/**
 * Failure counters with lockout: `max` failures inside the window lock the key for
 * lockMinutes. Keys are e.g. `email:<address>` (also for unknown addresses, so locking
 * reveals nothing) and `ip:<address>`. Counters live in the store, so restarts keep them and
 * every server on one database counts into the same ones; each count is one atomic store call.
 */
export function createThrottle(tokens: IdentityTokenStore, policy: ThrottlePolicy) {
  const windowMs = policy.windowMinutes * 60_000
  const lockMs = policy.lockMinutes * 60_000
  const rules = (counts: readonly ThrottleCount[]) => counts.map((c) => ({ ...c, windowMs, lockMs }))
  return {
    /** Milliseconds left on the longest lock among `keys`, 0 when they may try. */
    async lockedFor(keys: readonly string[], now: number): Promise<number> {
      return tokens.lockedFor(keys, now)
    },
    /**
     * One attempt, atomically: refused (lockedFor > 0, nothing counted) while any of `check` is
     * locked; otherwise one failure is counted on every counter and the keys it locked are named.
     */
    async attempt(
      check: readonly string[],
      counts: readonly ThrottleCount[],
      now: number,
    ): Promise<ThrottleOutcome> {
      return tokens.throttleAttempt(check, rules(counts), now)
    },
    /** Counts one failure on each counter; answers the keys this failure locked. */
    async fail(counts: readonly ThrottleCount[], now: number): Promise<string[]> {
      return (await tokens.throttleAttempt([], rules(counts), now)).locked
    },
    /**
     * Reserves one attempt whose outcome a slow check decides (see IdentityTokenStore.throttleReserve):
     * 0 when reserved, else the milliseconds to wait (a lock among `check`, or every slot in flight).
     */
    async reserve(check: readonly string[], counts: readonly ThrottleCount[], now: number): Promise<number> {
      return tokens.throttleReserve(check, rules(counts), now)
    },
    /** Settles attempts reserved at `startedAt`: a success frees its slots; answers the keys a failure locked. */
    async settle(
      counts: readonly ThrottleCount[],
      startedAt: number,
      failed: boolean,
      now: number,
    ): Promise<string[]> {
      return tokens.throttleSettle(rules(counts), startedAt, failed, now)
    },
    async clear(key: string): Promise<void> {
      await tokens.clearThrottle(key)
    },
  }
}

export type Throttle = ReturnType<typeof createThrottle>
