import { describe, expect, it } from 'vitest'
import { type DeliverySettings, operationsConfig } from '../../shared/config'
import type { Alert, AlertsEvaluation } from '../alerts'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from '../store/pg/accounts/testing/bothAccountStores'
import type { AlertMessage } from './alertChannels'
import { DeliveryEngine } from './DeliveryEngine'

const settings: DeliverySettings = {
  ...operationsConfig.delivery!,
  digestWindowMinutes: 0,
  reminderIntervalMinutes: 60,
  maxReminders: 2,
}

const alert = (id: string, severity = 'warning', ruleId = 'rule-a'): Alert => ({
  id,
  ruleId,
  ruleTitle: `Rule ${ruleId}`,
  severity,
  hazard: { dataset: 'h', id: 1, label: `Hazard ${id}`, time: null },
  assets: [{ dataset: 'a', id: 2, label: 'Line 7', distanceMiles: 0.5 }],
  nearestMiles: 0.5,
  time: '2026-11-22T18:00:00Z',
  bbox: [-106.6, 35, -106.5, 35.1],
})
const evaluation = (...alerts: Alert[]): AlertsEvaluation => ({ alerts, counts: new Map(), evaluatedAt: '' })

// The same assertions over the SQLite and the PostgreSQL accounts stores (issue #19).
describe.each(ACCOUNT_STORE_KINDS)('DeliveryEngine (%s)', (kind) => {
  const t = accountStoresFor(kind)

  function setup(
    overrides: Partial<DeliverySettings> = {},
    recipient = { phone: '+15055550100' as string | null, email: 'm@example.org', active: true },
  ) {
    const { subscriptions, delivery, acks } = t.stores
    const sent: AlertMessage[] = []
    const engine = () =>
      new DeliveryEngine({
        settings: { ...settings, ...overrides },
        severityLabels: new Map([
          ['critical', 'Critical'],
          ['warning', 'Warning'],
        ]),
        store: delivery,
        subscriptions,
        recipient: () => recipient,
        send: async (m) => {
          sent.push(m)
        },
        baseUrl: 'http://e',
        timeZone: 'America/Denver',
        now: () => 0,
      })
    const subscribe = (rules = ['rule-a'], channel: 'sms' | 'email' | 'both' = 'sms') =>
      subscriptions.write(
        'm1',
        { rules, severities: ['critical', 'warning'], channel, quietHours: null },
        { memberId: 'm1', ip: null },
        0,
      )
    return { acks, delivery, sent, engine, subscribe }
  }

  it('tells a member of an alert once, also when a second engine on the same database sees it', async () => {
    const { sent, engine, subscribe } = setup()
    await subscribe()
    const a = engine()
    const b = engine()
    await a.observe(evaluation(alert('x')), 1)
    await b.observe(evaluation(alert('x')), 1)
    await a.tick(2)
    await b.tick(2)
    expect(sent.map((m) => m.alertIds)).toEqual([['x']])
  })

  it('drops a waiting alert the member acknowledged, or whose rule they left', async () => {
    const { acks, sent, engine, subscribe } = setup({ digestWindowMinutes: 10 })
    await subscribe(['rule-a', 'rule-b'])
    const e = engine()
    await e.observe(evaluation(alert('x'), alert('y', 'warning', 'rule-b'), alert('z')), 0)
    await acks.acknowledge('x', { memberId: 'm1', ip: null }, 1)
    await subscribe(['rule-a'])
    await e.tick(9 * 60_000)
    expect(sent).toHaveLength(0) // the digest window
    await e.tick(10 * 60_000)
    expect(sent.map((m) => m.alertIds)).toEqual([['z']])
  })

  it('reminds at the interval, at most maxReminders times, not after acknowledgement', async () => {
    const { acks, sent, engine, subscribe } = setup()
    await subscribe()
    const e = engine()
    await e.observe(evaluation(alert('x'), alert('y')), 0)
    await e.tick(0)
    await e.tick(59 * 60_000)
    expect(sent).toHaveLength(1)
    await e.tick(60 * 60_000)
    expect(sent.map((m) => m.kind)).toEqual(['digest', 'reminder'])
    await acks.acknowledge('x', { memberId: 'm1', ip: null }, 1)
    await e.tick(120 * 60_000)
    await e.tick(180 * 60_000)
    expect(sent.slice(2).map((m) => m.alertIds)).toEqual([['y']])
  })

  it('forgets log lines, finished jobs and notices of ended episodes after 90 days', async () => {
    const { acks, delivery, sent, engine, subscribe } = setup()
    await subscribe()
    const e = engine()
    await e.observe(evaluation(alert('x'), alert('y')), 0)
    await e.tick(0)
    expect(sent).toHaveLength(1)
    await e.observe(evaluation(alert('y')), 1) // x clears
    await acks.acknowledge('y', { memberId: 'm1', ip: null }, 2)
    await e.tick(91 * 24 * 3_600_000)
    expect((await delivery.recentLog(100)).map((l) => l.event)).toEqual(['acknowledged', 'cleared'])
    expect(await t.count('delivery_jobs')).toBe(0)
    expect(await t.count('alert_notices')).toBe(1) // y: its episode is still on
  })

  it('sends by SMS and e-mail (with a subject); a missing address is logged, the other still goes', async () => {
    const { delivery, sent, engine, subscribe } = setup(
      {},
      { phone: null, email: 'm@example.org', active: true },
    )
    await subscribe(['rule-a'], 'both')
    const e = engine()
    await e.observe(evaluation(alert('x', 'critical')), 0)
    await e.tick(0)
    expect(sent.map((m) => [m.channel, m.to, m.kind])).toEqual([['email', 'm@example.org', 'alert']])
    expect(sent[0]?.subject).toBe('Emberline Critical: Hazard x near Line 7')
    expect(sent[0]?.text).toContain('Open the map at this alert: http://e/Alerts?alert=x&')
    const log = await delivery.recentLog(10)
    expect(log.find((l) => l.event === 'no_recipient')).toMatchObject({
      channel: 'sms',
      detail: 'no sms address',
    })
  })
})
