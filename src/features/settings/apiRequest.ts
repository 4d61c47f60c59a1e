import { authFetch } from '../session'

/** How a call to Emberline's own API failed: no answer, refused (4xx), or the server failed (5xx). */
export type FailureKind = 'network' | 'refused' | 'server'

/** A failed call to our own API, in words for the member (the server's own for a refusal). */
export class SettingsError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly parameter: string | null = null,
    readonly kind: FailureKind = status === 0 ? 'network' : status >= 500 ? 'server' : 'refused',
  ) {
    super(message)
  }
}

/** The words when the request got no answer at all (offline, server down, connection cut). */
export const NO_ANSWER = 'The Emberline server did not answer. Check your network connection and try again.'

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/**
 * Our API's `{ error, message, parameter }` answer as an error: a refusal (4xx) says the server's
 * message (what to change, and which parameter); a server failure (5xx) says so and that a retry may
 * help. ('Unable to contact our servers.' is the identity provider's sentence, spec §8, not ours.)
 */
export function failureOf(status: number, body: unknown): SettingsError {
  const data = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  const message = text(data.message)
  if (status >= 500) {
    const detail = message ? `HTTP ${status}: ${message}` : `HTTP ${status}`
    return new SettingsError(`The Emberline server failed (${detail}). Try again in a moment.`, status)
  }
  return new SettingsError(
    message ?? `The server refused the request (HTTP ${status}).`,
    status,
    text(data.parameter),
  )
}

/** Calls our API with the session token and answers the JSON body; throws a SettingsError on failure. */
export async function requestJson(
  url: string,
  init?: RequestInit,
  fetcher: typeof authFetch = authFetch,
): Promise<unknown> {
  let response: Response
  try {
    response = await fetcher(url, init)
  } catch {
    throw new SettingsError(NO_ANSWER, 0)
  }
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) throw failureOf(response.status, body)
  return body
}
