import { describe, expect, it, vi } from 'vitest'
import { fetchDeliveryLog, fetchSubscription, saveSubscription } from './alertSubscriptionApi'
import { SettingsError } from './settingsApi'

const json = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status })

describe('alertSubscriptionApi', () => {
  it('answers null when the server has no alert delivery (404)', async () => {
    await expect(fetchSubscription(vi.fn(json(404, { error: 'not_found' })))).resolves.toBeNull()
  })

  it('sends the whole subscription with PUT and answers what was stored', async () => {
    const subscription = {
      rules: ['r1'],
      severities: ['critical'],
      channel: 'both' as const,
      quietHours: null,
    }
    const fetcher = vi.fn(json(200, { subscription }))
    await expect(saveSubscription(subscription, fetcher)).resolves.toEqual(subscription)
    expect(fetcher).toHaveBeenCalledWith('/api/me/alert-subscription', {
      method: 'PUT',
      body: JSON.stringify(subscription),
    })
  })

  it('reports a refused field with the parameter the server names', async () => {
    const fetcher = vi.fn(
      json(400, { error: 'bad_request', parameter: 'rules', message: "unknown alert rule 'x'" }),
    )
    const failure = saveSubscription(
      { rules: ['x'], severities: [], channel: 'sms', quietHours: null },
      fetcher,
    )
    await expect(failure).rejects.toBeInstanceOf(SettingsError)
    await expect(failure).rejects.toMatchObject({ parameter: 'rules', message: "unknown alert rule 'x'" })
  })

  it('hides the delivery log from members who may not read it (403)', async () => {
    await expect(fetchDeliveryLog(vi.fn(json(403, { error: 'forbidden' })))).resolves.toBeNull()
    const entries = [{ id: 1, event: 'sent' }]
    await expect(fetchDeliveryLog(vi.fn(json(200, { entries })))).resolves.toEqual(entries)
  })

  it("says in our own words that the server did not answer or failed (not the identity provider's sentence)", async () => {
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(fetchSubscription(offline)).rejects.toMatchObject({
      message: 'The Emberline server did not answer. Check your network connection and try again.',
      kind: 'network',
    })
    const subscription = { rules: [], severities: [], channel: 'sms' as const, quietHours: null }
    await expect(
      saveSubscription(
        subscription,
        vi.fn(json(503, { error: 'unavailable', message: 'delivery is starting' })),
      ),
    ).rejects.toMatchObject({
      message: 'The Emberline server failed (HTTP 503: delivery is starting). Try again in a moment.',
      status: 503,
      kind: 'server',
    })
  })
})
