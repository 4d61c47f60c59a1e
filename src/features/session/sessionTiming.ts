import { appConfig } from '../../shared/config'

const minute = 60_000

/** How often a live session is re-authenticated in the background (spec §9: 3 minutes). */
export function refreshIntervalMs(): number {
  return appConfig.session.refreshIntervalMinutes * minute
}

/** Below this much remaining time a session counts as expiring soon (spec §9: 5 minutes). */
export function expiringSoonMs(): number {
  return appConfig.session.expiringSoonMinutes * minute
}

/**
 * Wait before retry number `attempt` (1-based) after failed re-authentications: base 2000 ms
 * doubled per attempt with the exponent capped at maxAttempts (spec §9: 7, so at most
 * 2000 × 2⁶ = 128 s), plus a jitter of ±jitterMs (about 175 ms). Retries go on at that pace for
 * as long as the failures are recoverable (an outage); only an unrecoverable answer logs out.
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const { baseMs, jitterMs, maxAttempts } = appConfig.session.backoff
  const jitter = (random() * 2 - 1) * jitterMs
  return Math.max(0, Math.round(baseMs * 2 ** (Math.min(attempt, maxAttempts) - 1) + jitter))
}

/** Whether an identity-provider error means the session is gone for good (spec §8). */
export function isUnrecoverable(errorType: string | null): boolean {
  const types: readonly string[] = appConfig.identity.unauthenticatedErrorTypes
  return errorType !== null && types.includes(errorType)
}
