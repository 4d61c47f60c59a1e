import { describe, expect, it } from 'vitest'
import type { AlertSubscription } from '../../alertSubscriptionStore'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from './testing/bothAccountStores'

// AlertsStore: src/server/store/alertsStore.test.ts (the same suite over both stores).

describe.each(ACCOUNT_STORE_KINDS)('PreferencesStore (%s)', (kind) => {
  const t = accountStoresFor(kind)

  it('answers null before the first save, then the last object saved, keys in the order written', async () => {
    const { preferences } = t.stores
    expect(await preferences.read('m-a')).toBeNull()
    await preferences.write('m-a', { units: 'metric', theme: 'dark' }, 1000)
    await preferences.write('m-a', { zoom: 'near', theme: 'light', units: 'imperial' }, 2000)
    await preferences.write('m-b', {}, 2000)
    const saved = await preferences.read('m-a')
    expect(saved).toEqual({ zoom: 'near', theme: 'light', units: 'imperial' })
    expect(Object.keys(saved ?? {})).toEqual(['zoom', 'theme', 'units'])
    expect(await preferences.read('m-b')).toEqual({})
  })
})

describe.each(ACCOUNT_STORE_KINDS)('AlertSubscriptionStore (%s)', (kind) => {
  const t = accountStoresFor(kind)
  const sms: AlertSubscription = {
    rules: ['r2', 'r1'],
    severities: ['high'],
    channel: 'sms',
    quietHours: null,
  }
  const both: AlertSubscription = {
    rules: ['r1'],
    severities: ['high', 'extreme'],
    channel: 'both',
    quietHours: { start: '22:00', end: '06:00' },
  }

  it('replaces a member’s subscription, lists all by member, audits every change', async () => {
    const { subscriptions, members } = t.stores
    expect(await subscriptions.read('m-b')).toBeNull()
    expect((await subscriptions.all()).size).toBe(0)
    await subscriptions.write('m-b', sms, { memberId: 'm-b', ip: '10.0.0.2' }, 1000)
    await subscriptions.write('m-a', sms, { memberId: 'admin', ip: null }, 2000)
    await subscriptions.write('m-a', both, { memberId: 'm-a', ip: null }, 3000)
    expect(await subscriptions.read('m-a')).toEqual(both)
    expect(await subscriptions.read('m-b')).toEqual(sms)
    expect([...(await subscriptions.all())]).toEqual([
      ['m-a', both],
      ['m-b', sms],
    ])
    const log = (await members.auditLog()).reverse()
    expect(log.map((e) => [e.event, e.memberId, e.subject, e.ip, e.at])).toEqual([
      ['alert.subscription_changed', 'm-b', 'm-b', '10.0.0.2', 1000],
      ['alert.subscription_changed', 'admin', 'm-a', null, 2000],
      ['alert.subscription_changed', 'm-a', 'm-a', null, 3000],
    ])
    expect(log[2]?.detail).toEqual({ ...both })
  })
})
