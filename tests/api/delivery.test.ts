import type { Geometry } from 'geojson'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { operationsConfig } from '../../src/shared/config'
import { startDeliverySchedule } from '../../src/server/delivery/deliverySchedule'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { localMinutes } from '../../src/server/delivery/quietHours'
import { decodeParts, partsToGeometry } from '../../src/server/store/geometryCodec'
import type { TestApp } from './testApp'
import {
  activeFire,
  alertOutbox,
  assetVertex,
  auth,
  deliveryApp,
  hotspot,
  importWith,
  MEMBERS,
  type MemberName,
} from './deliveryApp'

// Alert delivery end to end through the app: subscriptions over the API, new alerts from imported
// data, the outbox (no gateway). Ticks take an explicit clock that only moves forward.
const HOTSPOT_RULE = 'young-hotspot-near-distribution'
const FIRE_RULE = 'active-fire-near-transmission'
const MINUTE = 60_000

let t: TestApp
let clock = Date.now()
const step = (minutes: number) => (clock += minutes * MINUTE)

async function subscribe(name: MemberName, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/me/alert-subscription',
    headers: auth(name),
    payload: body,
  })
  expect(res.statusCode, res.body).toBe(200)
}

const delivery = () => {
  if (!t.app.alertDelivery) throw new Error('delivery is not configured')
  return t.app.alertDelivery
}
const sms = (name: MemberName) => alertOutbox(t.dataDir, 'sms', MEMBERS[name].phone)

/** As the dataset watcher does after an import: evaluate, then run what is due at `at`. */
async function evaluateAndTick(at: number) {
  await t.app.alertsEngine.evaluate()
  await delivery().tick(at)
}

beforeAll(async () => {
  t = await deliveryApp()
  await t.app.ready()
  await t.app.alertsEngine.evaluate() // as the schedule does after start-up: the alerts raised now are the baseline
}, 120_000)

afterAll(async () => {
  await t.close()
})

describe('alert subscriptions', () => {
  it('answers no subscription and the choices until the member saves one', async () => {
    const res = await t.app.inject({ url: '/api/me/alert-subscription', headers: auth('subscribed') })
    expect(res.statusCode).toBe(200)
    const body = res.json<{
      subscription: unknown
      options: { rules: { id: string }[]; channels: string[] }
    }>()
    expect(body.subscription).toBeNull()
    expect(body.options.rules.map((r) => r.id)).toContain(HOTSPOT_RULE)
    expect(body.options.channels).toEqual(['sms', 'email', 'both'])
  })

  it('stores it per member and writes the audit log', async () => {
    await subscribe('subscribed', {
      rules: [HOTSPOT_RULE],
      severities: ['warning'],
      channel: 'sms',
      quietHours: null,
    })
    const mine = await t.app.inject({ url: '/api/me/alert-subscription', headers: auth('subscribed') })
    expect(mine.json<{ subscription: unknown }>().subscription).toEqual({
      rules: [HOTSPOT_RULE],
      severities: ['warning'],
      channel: 'sms',
      quietHours: null,
    })
    const other = await t.app.inject({ url: '/api/me/alert-subscription', headers: auth('unsubscribed') })
    expect(other.json<{ subscription: unknown }>().subscription).toBeNull()
    const audit = await t.store.members.auditLog(20)
    expect(audit.find((e) => e.event === 'alert.subscription_changed')?.memberId).toBe('member-subscribed')
  })

  it.each([
    [{ rules: ['nope'], severities: [], channel: 'sms' }, 'rules'],
    [{ rules: [], severities: ['severe'], channel: 'sms' }, 'severities'],
    [{ rules: [], severities: [], channel: 'pigeon' }, 'channel'],
    [
      { rules: [], severities: [], channel: 'sms', quietHours: { start: '25:00', end: '06:00' } },
      'quietHours',
    ],
    [
      { rules: [], severities: [], channel: 'sms', quietHours: { start: '06:00', end: '06:00' } },
      'quietHours',
    ],
    [{ rules: [], severities: [] }, 'channel'],
  ])('refuses %j naming %s', async (payload, parameter) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/alert-subscription',
      headers: auth('quiet'),
      payload,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json<{ parameter: string }>().parameter).toBe(parameter)
  })

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/me/alert-subscription' })).statusCode).toBe(401)
    expect((await t.app.inject({ url: '/api/admin/alert-deliveries' })).statusCode).toBe(401)
  })
})

describe('delivery of new alerts', () => {
  let near: [number, number]
  let firstAlertId = ''

  it('sends exactly one SMS to the subscribed member for a hotspot imported near a line, none to the others', async () => {
    near = await assetVertex(t, HOTSPOT_RULE)
    await importWith(t.store, 'thermal_hot_spots', 'point', [hotspot(near, 1)])
    await evaluateAndTick(Date.now())
    expect(sms('subscribed')).toHaveLength(0) // still inside the digest window
    await delivery().tick(step(3))
    const mine = sms('subscribed')
    expect(mine).toHaveLength(1)
    expect(mine[0]?.kind).toBe('alert')
    expect(mine[0]?.text).toContain('TEST-1 hotspot')
    expect(mine[0]?.text).toMatch(/within 0\.0\d mi/)
    expect(mine[0]?.link).toMatch(
      /\/Alerts\?alert=young-hotspot-near-distribution%3A\d+&c=-?\d+\.\d+,\d+\.\d+&z=\d+$/,
    )
    firstAlertId = mine[0]?.alertIds?.[0] ?? ''
    expect(sms('unsubscribed')).toHaveLength(0)
    expect(sms('admin')).toHaveLength(0)
  })

  it('sends nothing new when the same alerts are evaluated again', async () => {
    await evaluateAndTick(step(3))
    await t.app.inject({ url: '/api/alerts', headers: auth('subscribed') })
    await delivery().tick(step(3))
    expect(sms('subscribed')).toHaveLength(1)
  })

  it('groups three alerts raised within the window into one digest', async () => {
    await importWith(t.store, 'thermal_hot_spots', 'point', [
      hotspot(near, 2),
      hotspot(near, 3),
      hotspot(near, 4),
    ])
    await evaluateAndTick(step(3))
    const mine = sms('subscribed')
    expect(mine).toHaveLength(2)
    expect(mine[1]?.kind).toBe('digest')
    expect(mine[1]?.alertIds).toHaveLength(3)
    expect(mine[1]?.text).toContain('3 new alerts')
    for (const n of [2, 3, 4]) expect(mine[1]?.text).toContain(`TEST-${n} hotspot`)
  })

  it('reminds of unacknowledged alerts; acknowledging in the app stops the reminders', async () => {
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/alerts/${encodeURIComponent(firstAlertId)}/ack`,
      headers: auth('subscribed'),
    })
    expect(ack.statusCode).toBe(200)
    await delivery().tick(step(61))
    const reminders = sms('subscribed').filter((m) => m.kind === 'reminder')
    expect(reminders.length).toBeGreaterThan(0)
    expect(reminders.flatMap((m) => m.alertIds)).not.toContain(firstAlertId)
    expect(reminders[0]?.text).toMatch(/^Reminder, not acknowledged: /)
  })

  it('holds back a Warning alert during quiet hours but sends a Critical one', async () => {
    const local = localMinutes(clock, 'America/Denver')
    const hhmm = (m: number) => {
      const v = (m + 1440) % 1440
      return `${String(Math.floor(v / 60)).padStart(2, '0')}:${String(v % 60).padStart(2, '0')}`
    }
    const quietHours = { start: hhmm(local - 30), end: hhmm(local + 60) }
    await subscribe('quiet', {
      rules: [HOTSPOT_RULE, FIRE_RULE],
      severities: ['critical', 'warning'],
      channel: 'sms',
      quietHours,
    })
    await importWith(t.store, 'thermal_hot_spots', 'point', [hotspot(near, 5)])
    await importWith(t.store, 'fire_extent_active', 'polygon', [
      activeFire(await assetVertex(t, FIRE_RULE), 'Test Fire'),
    ])
    await evaluateAndTick(step(3))
    const during = sms('quiet')
    expect(during).toHaveLength(1)
    expect(during[0]?.alertIds).toEqual([`${FIRE_RULE}:Test Fire`])
    const log = await t.app.inject({ url: '/api/admin/alert-deliveries', headers: auth('admin') })
    const held = log
      .json<{ entries: { memberId: string; event: string; alertIds: string[] }[] }>()
      .entries.filter((e) => e.memberId === 'member-quiet' && e.event === 'held')
    expect(held).toHaveLength(1)
    expect(held[0]?.alertIds[0]).toMatch(/^young-hotspot-near-distribution:/)

    await delivery().tick(step(90)) // quiet hours are over
    const after = sms('quiet').slice(1)
    expect(after.filter((m) => m.kind === 'alert').flatMap((m) => m.alertIds)).toEqual(held[0]?.alertIds)
  })

  it('delivers an alert again when it clears and comes back', async () => {
    const kind = 'point'
    const all = (await t.store.allFeatures('thermal_hot_spots')).map((f) => ({
      geometry: partsToGeometry(decodeParts(f.geom), kind) as Geometry,
      properties: f.properties,
    }))
    const last = all[all.length - 1]
    if (!last) throw new Error('no hotspots')
    await t.store.replaceDataset('thermal_hot_spots', all.slice(0, -1))
    await evaluateAndTick(step(3))
    const before = sms('subscribed').length
    await t.store.replaceDataset('thermal_hot_spots', all)
    await evaluateAndTick(step(3))
    const mine = sms('subscribed')
    expect(mine).toHaveLength(before + 1)
    expect(mine[mine.length - 1]?.text).toContain('TEST-5 hotspot')
  })
})

describe('imports by another process', () => {
  it('are noticed by the dataset watcher, evaluated and delivered', async () => {
    const near = await assetVertex(t, HOTSPOT_RULE)
    // A second connection to the same store, as `npm run import` opens in its own process.
    const cli = await openDataDirStore(t.dataDir, defaultCatalog())
    await importWith(cli, 'thermal_hot_spots', 'point', [hotspot(near, 6)])
    await cli.close()
    const settings = operationsConfig.delivery
    if (!settings) throw new Error('no delivery config')
    const notices = t.store.delivery
    const stop = startDeliverySchedule({
      app: t.app,
      delivery: delivery(),
      settings: { ...settings, watchSeconds: 0.05 },
    })
    try {
      await vi.waitFor(
        async () =>
          expect(
            (await notices.waitingNotices()).some(
              (n) => n.memberId === 'member-subscribed' && n.fields.hazard?.startsWith('TEST-6'),
            ),
          ).toBe(true),
        { timeout: 20_000, interval: 50 },
      )
    } finally {
      stop()
    }
    await delivery().tick(step(3))
    expect(sms('subscribed').at(-1)?.text).toContain('TEST-6 hotspot')
  })
})

describe('the delivery log', () => {
  it('is visible to administrators, with sends and holds', async () => {
    const res = await t.app.inject({ url: '/api/admin/alert-deliveries?limit=500', headers: auth('admin') })
    expect(res.statusCode).toBe(200)
    const events = new Set(res.json<{ entries: { event: string }[] }>().entries.map((e) => e.event))
    expect([...events]).toEqual(expect.arrayContaining(['queued', 'sent', 'held']))
  })

  it('is refused to other members (403) and checks its limit', async () => {
    const res = await t.app.inject({ url: '/api/admin/alert-deliveries', headers: auth('subscribed') })
    expect(res.statusCode).toBe(403)
    const bad = await t.app.inject({ url: '/api/admin/alert-deliveries?limit=0', headers: auth('admin') })
    expect(bad.statusCode).toBe(400)
    expect(bad.json<{ parameter: string }>().parameter).toBe('limit')
  })
})
