/** What a message gateway made of one POST: delivered, unreachable (network or timeout), or refused. */
export type WebhookResult = { ok: true } | { ok: false; status: number | null }

/**
 * POSTs `body` as JSON to a message gateway (SMS/e-mail webhooks of the identity provider and of
 * alert delivery) within `timeoutMs`. Never throws: each caller words its own error.
 */
export async function postWebhook(url: string, body: unknown, timeoutMs: number): Promise<WebhookResult> {
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch {
    return { ok: false, status: null }
  }
  await response.body?.cancel()
  return response.ok ? { ok: true } : { ok: false, status: response.status }
}
