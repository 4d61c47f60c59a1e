/** The SDK's errors for a provider it could not reach or whose answer was no API answer. */
const UNREACHABLE_ERRORS = new Set(['SDKAPIUnreachableError', 'StytchAPIUnreachableError'])

/** What browsers' fetch says when the network fails (Chromium, Firefox, Safari; Node's undici). */
const NETWORK_FAILURE =
  /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|fetch failed)$/

/**
 * True when the identity provider could not be reached or could not answer: a network failure
 * (the SDK's unreachable errors, or fetch's own TypeError), an answer that is no API answer (a
 * proxy's HTML 502), or a server error (5xx). A refusal (4xx: wrong password, wrong code) is not.
 */
export function isUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const {
    name,
    message,
    status_code: status,
  } = error as {
    name?: unknown
    message?: unknown
    status_code?: unknown
  }
  if (typeof name === 'string' && UNREACHABLE_ERRORS.has(name)) return true
  if (name === 'TypeError' && typeof message === 'string' && NETWORK_FAILURE.test(message)) return true
  return typeof status === 'number' && status >= 500
}
