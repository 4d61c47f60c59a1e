/** The SDK's errors for a provider it could not reach or whose answer was no API answer. */
const UNREACHABLE_ERRORS = new Set(['SDKAPIUnreachableError', 'StytchAPIUnreachableError'])

/** What browsers' fetch says when the network fails (Chromium, Firefox, Safari; Node's undici). */
const NETWORK_FAILURE =
  /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|fetch failed)$/

/**
 * True when nothing answered in the provider's API shape: a network failure (the SDK's unreachable
 * errors, or fetch's own TypeError) or an answer that is no API answer (a proxy's HTML 502).
 */
export function isNoAnswer(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { name, message } = error as { name?: unknown; message?: unknown }
  if (typeof name === 'string' && UNREACHABLE_ERRORS.has(name)) return true
  return name === 'TypeError' && typeof message === 'string' && NETWORK_FAILURE.test(message)
}

/**
 * True when the identity provider could not be reached or could not answer: no answer
 * (`isNoAnswer`) or a server error (5xx). A refusal (4xx: wrong password, wrong code) is not.
 */
export function isUnreachable(error: unknown): boolean {
  if (isNoAnswer(error)) return true
  if (typeof error !== 'object' || error === null) return false
  const status = (error as { status_code?: unknown }).status_code
  return typeof status === 'number' && status >= 500
}
