import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsConfig } from '../../src/shared/config'
import { buildApp } from '../../src/server/app'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { seededApp, type TestApp } from './testApp'

interface AlertBody {
  id: string
  ruleId: string
  severity: string
  time: string
  acknowledged: boolean
  acknowledgedAt: string | null
  assets: { distanceMiles: number }[]
  nearestMiles: number
}
interface ListBody {
  alerts: AlertBody[]
  evaluatedAt: string
  rules: { id: string; title: string; severity: string; count: number }[]
  severities: { id: string; label: string; color: string }[]
}

const members: Record<string, string> = { 'token-ann': 'member-ann', 'token-bob': 'member-bob' }
const verifier: SessionVerifier = {
  async verify(token) {
    const memberId = members[token]
    return memberId
      ? {
          memberId,
          sessionId: `s-${memberId}`,
          organizationId: 'o',
          roles: [],
          expiresAt: new Date(Date.now() + 3.6e6),
        }
      : null
  },
}
const ann = { authorization: 'Bearer token-ann' }
const bob = { authorization: 'Bearer token-bob' }
const rank = new Map(operationsConfig.alerts.severities.map((s, i) => [s.id, i]))

let t: TestApp

beforeAll(async () => {
  t = await seededApp()
  t.app.sessionAuth.setVerifier(verifier)
}, 120_000)

afterAll(async () => {
  await t.close()
})

async function list(query = '', headers = ann): Promise<ListBody> {
  const r = await t.app.inject({ method: 'GET', url: `/api/alerts${query}`, headers })
  expect(r.statusCode, r.body).toBe(200)
  return r.json<ListBody>()
}

describe('/api/alerts', () => {
  it('requires a session on every route', async () => {
    const first = (await list()).alerts[0]?.id ?? 'x'
    const id = encodeURIComponent(first)
    const routes = [
      ['GET', '/api/alerts'],
      ['GET', `/api/alerts/${id}/geometry`],
      ['POST', `/api/alerts/${id}/ack`],
      ['DELETE', `/api/alerts/${id}/ack`],
    ] as const
    for (const [method, url] of routes) {
      for (const headers of [{}, { authorization: 'Bearer forged' }]) {
        const r = await t.app.inject({ method, url, headers })
        expect(r.statusCode, `${method} ${url}`).toBe(401)
        expect(r.json()).toMatchObject({ error: 'unauthorized' })
      }
    }
  })

  it('lists the demo alerts by severity (config order), then newest first', async () => {
    const body = await list()
    expect(body.alerts.length).toBeGreaterThan(0)
    for (let i = 1; i < body.alerts.length; i++) {
      const a = body.alerts[i - 1]!
      const b = body.alerts[i]!
      const order = rank.get(a.severity)! - rank.get(b.severity)! || b.time.localeCompare(a.time)
      expect(order, `${a.id} before ${b.id}`).toBeLessThanOrEqual(0)
    }
    for (const a of body.alerts) {
      const distances = a.assets.map((x) => x.distanceMiles)
      expect(distances).toEqual([...distances].sort((x, y) => x - y))
      expect(a.nearestMiles).toBe(distances[0])
    }
    expect(body.rules.map((r) => r.id)).toEqual(operationsConfig.alerts.rules.map((r) => r.id))
    expect(body.rules.reduce((n, r) => n + r.count, 0)).toBe(body.alerts.length)
    expect(body.severities.map((s) => s.id)).toEqual(operationsConfig.alerts.severities.map((s) => s.id))
    for (const s of body.severities) expect(s.color).toMatch(/^#[0-9a-f]{6}([0-9a-f]{2})?$/i)
    expect(Date.parse(body.evaluatedAt)).not.toBeNaN()
  })

  it('filters by rule (repeated or comma list) and severity', async () => {
    const all = (await list()).alerts
    const [r1, r2] = [...new Set(all.map((a) => a.ruleId))]
    expect(r2).toBeDefined()
    const one = await list(`?rule=${r1}`)
    expect(one.alerts.length).toBe(all.filter((a) => a.ruleId === r1).length)
    expect(new Set(one.alerts.map((a) => a.ruleId))).toEqual(new Set([r1]))
    const both = all.filter((a) => a.ruleId === r1 || a.ruleId === r2).length
    expect((await list(`?rule=${r1},${r2}`)).alerts.length).toBe(both)
    expect((await list(`?rule=${r1}&rule=${r2}`)).alerts.length).toBe(both)
    const severity = all[all.length - 1]!.severity
    const bySeverity = await list(`?severity=${severity}`)
    expect(bySeverity.alerts.length).toBe(all.filter((a) => a.severity === severity).length)
  })

  it('answers 400 naming the parameter for unknown values', async () => {
    const cases: [string, string][] = [
      ['?rule=no-such-rule', 'rule'],
      ['?severity=catastrophic', 'severity'],
      ['?acknowledged=maybe', 'acknowledged'],
      ['?acknowledged=true&acknowledged=false', 'acknowledged'],
      ['?colour=red', 'colour'],
    ]
    for (const [query, parameter] of cases) {
      const r = await t.app.inject({ method: 'GET', url: `/api/alerts${query}`, headers: ann })
      expect(r.statusCode, query).toBe(400)
      expect(r.json()).toMatchObject({ error: 'bad_request', parameter })
    }
  })

  it('answers the hazard and asset geometry of an alert, 404 for an unknown id', async () => {
    const alert = (await list()).alerts[0]!
    const r = await t.app.inject({
      method: 'GET',
      url: `/api/alerts/${encodeURIComponent(alert.id)}/geometry`,
      headers: ann,
    })
    expect(r.statusCode).toBe(200)
    const fc = r.json<{ type: string; features: { properties: { role: string } }[] }>()
    expect(fc.type).toBe('FeatureCollection')
    expect(fc.features.map((f) => f.properties.role)).toEqual(['hazard', ...alert.assets.map(() => 'asset')])
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const url = method === 'GET' ? '/api/alerts/nope:1/geometry' : '/api/alerts/nope:1/ack'
      const missing = await t.app.inject({ method, url, headers: ann })
      expect(missing.statusCode, method).toBe(404)
      expect(missing.json()).toMatchObject({ error: 'not_found' })
    }
  })

  it('acknowledges per member, idempotently, audited, persisted, and can undo it', async () => {
    const alert = (await list()).alerts[0]!
    const url = `/api/alerts/${encodeURIComponent(alert.id)}/ack`
    const first = await t.app.inject({ method: 'POST', url, headers: ann })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ id: alert.id, acknowledged: true })
    const again = await t.app.inject({ method: 'POST', url, headers: ann })
    expect(again.json<{ acknowledgedAt: string }>().acknowledgedAt).toBe(
      first.json<{ acknowledgedAt: string }>().acknowledgedAt,
    )

    const mine = (await list()).alerts.find((a) => a.id === alert.id)
    expect(mine).toMatchObject({ acknowledged: true })
    expect((await list('?acknowledged=true')).alerts.map((a) => a.id)).toEqual([alert.id])
    expect((await list('?acknowledged=false')).alerts.some((a) => a.id === alert.id)).toBe(false)
    expect((await list('', bob)).alerts.find((a) => a.id === alert.id)).toMatchObject({ acknowledged: false })

    const audit = (await t.store.members.auditLog()).filter(
      (e) => e.event === 'alert.acknowledged' && e.subject === alert.id,
    )
    expect(audit).toHaveLength(1)
    expect(audit[0]?.memberId).toBe('member-ann')

    // A second process over the same data directory sees the acknowledgement.
    const store = await openDataDirStore(t.dataDir, defaultCatalog())
    const other = await buildApp({ dataDir: t.dataDir, demo: true, store, verifier })
    try {
      const r = await other.inject({ method: 'GET', url: '/api/alerts?acknowledged=true', headers: ann })
      expect(r.json<ListBody>().alerts.map((a) => a.id)).toEqual([alert.id])
    } finally {
      await other.close()
      await store.close()
    }

    const undo = await t.app.inject({ method: 'DELETE', url, headers: ann })
    expect(undo.json()).toMatchObject({ acknowledged: false, acknowledgedAt: null })
    expect((await list('?acknowledged=true')).alerts).toHaveLength(0)
  })

  // Last: it changes the data.
  it('recomputes when a dataset is replaced', async () => {
    const rule = operationsConfig.alerts.rules.find((r) => r.hazard.dataset === 'red_flag_warnings')!
    const before = (await list()).rules.find((r) => r.id === rule.id)!.count
    expect(before).toBeGreaterThan(0)
    await t.store.replaceDataset(rule.hazard.dataset, [])
    const after = await list()
    expect(after.rules.find((r) => r.id === rule.id)!.count).toBe(0)
    expect(after.alerts.some((a) => a.ruleId === rule.id)).toBe(false)
  })
})
