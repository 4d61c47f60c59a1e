import { appConfig } from '../../generated/config'

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
 * doubled per attempt, plus a jitter of ±jitterMs (spec §9: about 175 ms).
 */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const { baseMs, jitterMs } = appConfig.session.backoff
  const jitter = (random() * 2 - 1) * jitterMs
  return Math.max(0, Math.round(baseMs * 2 ** (attempt - 1) + jitter))
}

/** Failed re-authentications tolerated before the session is given up (spec §9: 7). */
export function maxRefreshAttempts(): number {
  return appConfig.session.backoff.maxAttempts
}

/** Whether an identity-provider error means the session is gone for good (spec §8). */
export function isUnrecoverable(errorType: string | null): boolean {
  const types: readonly string[] = appConfig.identity.unauthenticatedErrorTypes
  return errorType !== null && types.includes(errorType)
}
