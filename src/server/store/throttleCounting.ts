/**
 * How one throttle counter changes, as pure functions both token stores apply inside their own
 * atomic step (a SQLite transaction, a PostgreSQL transaction holding the rows).
 */

export interface ThrottleRecord {
  failures: number
  windowStart: number
  lockedUntil: number
}

/** One failure counter to bump: `max` failures within `windowMs` lock `key` for `lockMs`. */
export interface ThrottleRule {
  key: string
  max: number
  windowMs: number
  lockMs: number
}

/** Milliseconds a reservation asks the caller to wait when every slot of a counter is in flight. */
export const RESERVATION_BUSY_MS = 1000

/** Failures counted in the counter's current window at `now` (0 once the window has passed). */
export function windowFailures(r: ThrottleRecord | null, rule: ThrottleRule, now: number): number {
  return r && now - r.windowStart < rule.windowMs ? r.failures : 0
}

/** The counter after one failure: the one that reaches `max` locks the key and starts again at 0. */
export function failOnce(
  r: ThrottleRecord | null,
  rule: ThrottleRule,
  now: number,
): { next: ThrottleRecord; locked: boolean } {
  const fresh = !r || now - r.windowStart >= rule.windowMs
  const failures = fresh ? 1 : r.failures + 1
  if (failures >= rule.max)
    return { next: { failures: 0, windowStart: now, lockedUntil: now + rule.lockMs }, locked: true }
  return {
    next: { failures, windowStart: fresh ? now : r.windowStart, lockedUntil: r?.lockedUntil ?? 0 },
    locked: false,
  }
}

/**
 * A reservation: the attempt takes one slot of the window (counted like a failure, so parallel
 * attempts cannot outrun the limit) without locking; null when all `max` slots are taken.
 */
export function reserveOnce(
  r: ThrottleRecord | null,
  rule: ThrottleRule,
  now: number,
): ThrottleRecord | null {
  const failures = windowFailures(r, rule, now)
  if (failures >= rule.max) return null
  return {
    failures: failures + 1,
    windowStart: failures === 0 ? now : (r?.windowStart ?? now),
    lockedUntil: r?.lockedUntil ?? 0,
  }
}

/**
 * Settles a reservation made at `startedAt`. A success gives its slot back. A failure keeps it
 * and locks the key once the window holds `max` (the slot is counted afresh when the window it
 * was taken in has been reset meanwhile). Null: nothing changes.
 */
export function settleOnce(
  r: ThrottleRecord | null,
  rule: ThrottleRule,
  startedAt: number,
  failed: boolean,
  now: number,
): { next: ThrottleRecord; locked: boolean } | null {
  // Was the reservation counted in the counter's current window?
  const held = r !== null && r.windowStart <= startedAt && now - r.windowStart < rule.windowMs
  if (!failed) {
    if (!held || r.failures === 0) return null
    return { next: { ...r, failures: r.failures - 1 }, locked: false }
  }
  if (!held) return failOnce(r, rule, now)
  if (r.failures < rule.max) return null
  return { next: { failures: 0, windowStart: now, lockedUntil: now + rule.lockMs }, locked: true }
}
