import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { buildPspsEvent } from '../../src/server/operations/pspsEvent'
import { generateDemo } from '../../src/demo/generateDemo'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { operationsConfig } from '../../src/shared/config'
import { tempDir, testApp, type TestApp } from './testApp'

/** Three members: one who only reads, an operator who records, an administrator. */
const ROLES: Record<string, string[]> = {
  reader: ['stytch_member'],
  operator: ['stytch_member', 'psps_operator'],
  admin: ['stytch_member', 'stytch_admin'],
}
const verifier: SessionVerifier = {
  async verify(credential) {
    const roles = ROLES[credential]
    if (!roles) return null
    return {
      memberId: `member-${credential}`,
      sessionId: `session-${credential}`,
      organizationId: 'organization-test',
      roles,
      expiresAt: new Date(Date.now() + 3_600_000),
    }
  },
}
const as = (who: keyof typeof ROLES) => ({ authorization: `Bearer ${who}` })
const OPERATOR = as('operator')

interface Period {
  period: number
  deenergizedAt: string
  patrolledAt: string | null
  restoredAt: string | null
  damageFound: boolean | null
  notes: string | null
  recordedBy: string
}
interface Circuit {
  circuit: string
  customers: Record<'residential' | 'commercial' | 'industrial' | 'other' | 'total', number | null>
  medicalBaseline: number | null
  criticalFacilities: Record<string, number>
  state: string
  deenergizedAt: string | null
  restoredAt: string | null
  periods: Period[]
}
interface Phase {
  phase: string
  at: string
  until: string | null
  by: string
  notifications: { at: string; channel: string | null; kind: string; alertIds: string[] }[]
}
interface Event {
  id: number
  name: string
  phase: string
  nextPhases: string[]
  createdBy: string
  phases: Phase[]
  circuits: Circuit[]
}

const rollup = operationsConfig.psps!
const HOUR = 3_600_000
let t: TestApp
let keys: string[]
/** A whole minute two days ago: every recorded time below is after it and in the past. */
const base = Math.floor((Date.now() - 48 * HOUR) / 60_000) * 60_000
const at = (hours: number) => new Date(base + hours * HOUR).toISOString()

beforeAll(async () => {
  const dataDir = tempDir()
  const store = await openDataDirStore(dataDir, defaultCatalog())
  // Only the circuits dataset: the events read nothing else (and a full seed is most of this file's time).
  const produce = generateDemo({ buildings: 10 }).datasets[rollup.dataset]!
  await store.replaceDataset(rollup.dataset, produce())
  const app = await buildApp({ dataDir, demo: true, store, verifier })
  t = testApp(app, store, dataDir)
  const features = await store.allFeatures(rollup.dataset)
  keys = features.map((f) => String(f.properties[rollup.key]))
}, 120_000)

afterAll(async () => {
  await t?.close()
})

async function create(body: unknown, headers = OPERATOR) {
  return t.app.inject({ method: 'POST', url: '/api/psps/events', headers, payload: body as object })
}
async function created(body: unknown): Promise<Event> {
  const res = await create(body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<Event>()
}
async function phase(id: number, to: string, headers = OPERATOR) {
  return t.app.inject({ method: 'PATCH', url: `/api/psps/events/${id}`, headers, payload: { phase: to } })
}
async function record(id: number, circuit: string, body: unknown, headers = OPERATOR) {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/psps/events/${id}/circuits/${encodeURIComponent(circuit)}`,
    headers,
    payload: body as object,
  })
}
async function recorded(id: number, circuit: string, body: unknown): Promise<Event> {
  const res = await record(id, circuit, body)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Event>()
}
async function read(id: number): Promise<Event> {
  const res = await t.app.inject({ url: `/api/psps/events/${id}`, headers: as('reader') })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Event>()
}

describe('PSPS event lifecycle', () => {
  it('creates an event from the forecast roll-up: its recommended circuits with their counts', async () => {
    const features = await t.store.allFeatures(rollup.dataset)
    const recommended = buildPspsEvent(rollup, features).rows.filter((r) => r.gustExceedsThreshold)
    expect(recommended.length).toBeGreaterThan(0)
    const event = await created({ fromForecast: true, name: 'Santa Ana wind event' })
    expect(event.id).toBeGreaterThan(0)
    expect(event.name).toBe('Santa Ana wind event')
    expect(event.phase).toBe('watch')
    expect(event.circuits.map((c) => c.circuit)).toEqual(recommended.map((r) => r.key))
    const first = event.circuits[0]!
    const props = features.find((f) => f.properties[rollup.key] === first.circuit)!.properties
    // The demo dataset has no class split: classes stay null, every customer counts as other.
    expect(first.customers).toEqual({
      residential: null,
      commercial: null,
      industrial: null,
      other: props.customers_impacted,
      total: props.customers_impacted,
    })
    expect(first.medicalBaseline).toBe(props.medical_certificates)
    const facilities = Number(props.critical_infrastructure)
    expect(first.criticalFacilities).toEqual(facilities > 0 ? { unspecified: facilities } : {})
    expect(first.state).toBe('energized')
    expect(first.periods).toEqual([])
    expect(event.phases).toHaveLength(1)
    expect(event.phases[0]).toMatchObject({ phase: 'watch', by: 'member-operator', until: null })
    expect(event.nextPhases).toEqual(['warning', 'closed'])
  })

  it('creates an event by hand from circuit ids and lists it', async () => {
    const event = await created({ name: 'By hand', circuits: [keys[2], keys[0]] })
    expect(event.circuits.map((c) => c.circuit)).toEqual([keys[2], keys[0]])
    const list = await t.app.inject({ url: '/api/psps/events', headers: as('reader') })
    expect(list.statusCode).toBe(200)
    const listed = list.json<{
      events: { id: number; name: string; phase: string; circuitCount: number }[]
    }>()
    expect(listed.events[0]).toMatchObject({ id: event.id, name: 'By hand', phase: 'watch', circuitCount: 2 })
    expect((await read(event.id)).circuits).toEqual(event.circuits)
  })

  it('moves through the phases, each change timed and attributed; closed is final', async () => {
    const event = await created({ name: 'Phases', circuits: [keys[0]] })
    for (const to of ['warning', 'de-energized', 'patrolling', 'restored']) {
      const res = await phase(event.id, to, to === 'restored' ? as('admin') : OPERATOR)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json<Event>().phase).toBe(to)
    }
    const closed = (await phase(event.id, 'closed')).json<Event>()
    expect(closed.phases.map((p) => p.phase)).toEqual([
      'watch',
      'warning',
      'de-energized',
      'patrolling',
      'restored',
      'closed',
    ])
    expect(closed.phases.map((p) => p.by)).toEqual([
      'member-operator',
      'member-operator',
      'member-operator',
      'member-operator',
      'member-admin',
      'member-operator',
    ])
    const times = closed.phases.map((p) => Date.parse(p.at))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    for (let i = 0; i < closed.phases.length - 1; i++)
      expect(closed.phases[i]!.until).toBe(closed.phases[i + 1]!.at)
    expect(closed.nextPhases).toEqual([])
    const again = await phase(event.id, 'watch')
    expect(again.statusCode).toBe(400)
    expect(again.json()).toMatchObject({ error: 'bad_request', parameter: 'phase' })
    const late = await record(event.id, keys[0]!, { deenergizedAt: at(1) })
    expect(late.statusCode).toBe(409)
  })

  it('records de-energization, patrol and restoration of a circuit', async () => {
    const event = await created({ name: 'Record', circuits: [keys[0], keys[1]] })
    const c = keys[1]!
    let e = await recorded(event.id, c, { deenergizedAt: at(1) })
    let circuit = e.circuits.find((x) => x.circuit === c)!
    expect(circuit.state).toBe('de-energized')
    expect(circuit.periods).toHaveLength(1)
    e = await recorded(event.id, c, {
      patrolledAt: at(5),
      damageFound: true,
      notes: 'Tree on conductor, span 14',
    })
    e = await recorded(event.id, c, { restoredAt: at(7.5) })
    circuit = e.circuits.find((x) => x.circuit === c)!
    expect(circuit.state).toBe('restored')
    expect(circuit.periods).toEqual([
      expect.objectContaining({
        period: 1,
        deenergizedAt: at(1),
        patrolledAt: at(5),
        restoredAt: at(7.5),
        damageFound: true,
        notes: 'Tree on conductor, span 14',
        recordedBy: 'member-operator',
      }),
    ])
    expect(e.circuits.find((x) => x.circuit === keys[0])!.state).toBe('energized')
  })
})

describe('PSPS event validation', () => {
  let id: number
  const c = () => keys[0]!
  beforeAll(async () => {
    id = (await created({ name: 'Validation', circuits: [keys[0], keys[1]] })).id
  })

  it('refuses a restoration or a patrol before the de-energization, naming the field', async () => {
    await recorded(id, c(), { deenergizedAt: at(10) })
    const restore = await record(id, c(), { restoredAt: at(9) })
    expect(restore.statusCode).toBe(400)
    expect(restore.json()).toMatchObject({ error: 'bad_request', parameter: 'restoredAt' })
    expect(restore.json<{ message: string }>().message).toContain('before the de-energization')
    const patrol = await record(id, c(), { patrolledAt: at(9.5) })
    expect(patrol.json()).toMatchObject({ parameter: 'patrolledAt' })
    expect(patrol.statusCode).toBe(400)
    // A corrected de-energization after the recorded patrol is refused as well.
    await recorded(id, c(), { patrolledAt: at(11) })
    const later = await record(id, c(), { deenergizedAt: at(12) })
    expect(later.statusCode).toBe(400)
    expect(later.json()).toMatchObject({ parameter: 'deenergizedAt' })
    const circuit = (await read(id)).circuits.find((x) => x.circuit === c())!
    expect(circuit.periods).toHaveLength(1)
    expect(circuit.periods[0]).toMatchObject({ deenergizedAt: at(10), patrolledAt: at(11), restoredAt: null })
  })

  it('refuses times in the future and times without a zone', async () => {
    const future = new Date(Date.now() + HOUR).toISOString()
    for (const field of ['deenergizedAt', 'patrolledAt', 'restoredAt']) {
      const res = await record(id, keys[1]!, { [field]: future })
      expect(res.statusCode, field).toBe(400)
      expect(res.json<{ parameter: string; message: string }>()).toMatchObject({ parameter: field })
      expect(res.json<{ message: string }>().message).toContain('in the future')
    }
    for (const bad of [
      '2026-11-27 10:00',
      '2026-11-27T10:00',
      'yesterday',
      '2026-13-40T10:00:00Z',
      '2025-02-29T10:00:00Z',
    ]) {
      const res = await record(id, keys[1]!, { deenergizedAt: bad })
      expect(res.statusCode, bad).toBe(400)
      expect(res.json()).toMatchObject({ parameter: 'deenergizedAt' })
    }
  })

  it('a patrol, restoration or note needs a de-energization first', async () => {
    for (const body of [
      { patrolledAt: at(1) },
      { restoredAt: at(1) },
      { notes: 'x' },
      { damageFound: false },
    ]) {
      const res = await record(id, keys[1]!, body)
      expect(res.statusCode).toBe(400)
      expect(res.json<{ parameter: string }>().parameter).toBe(Object.keys(body)[0])
    }
  })

  it('refuses unknown circuits, unknown events and circuits outside the event', async () => {
    const unknown = await create({ name: 'x', circuits: [keys[0], 'NO-SUCH-CIRCUIT'] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json()).toMatchObject({ parameter: 'circuits' })
    expect(unknown.json<{ message: string }>().message).toContain('NO-SUCH-CIRCUIT')
    expect((await record(id, 'NO-SUCH-CIRCUIT', { deenergizedAt: at(1) })).statusCode).toBe(404)
    expect((await record(id, keys[3]!, { deenergizedAt: at(1) })).statusCode).toBe(404)
    expect((await t.app.inject({ url: '/api/psps/events/999999', headers: as('reader') })).statusCode).toBe(
      404,
    )
    expect((await phase(999999, 'warning')).statusCode).toBe(404)
    for (const suffix of ['report', 'report.csv', 'report.xlsx']) {
      const res = await t.app.inject({ url: `/api/psps/events/999999/${suffix}`, headers: as('reader') })
      expect(res.statusCode, suffix).toBe(404)
      expect(res.json()).toMatchObject({ error: 'not_found' })
    }
  })

  it('refuses bad create bodies, naming the parameter', async () => {
    const cases: [unknown, string][] = [
      [{ circuits: [keys[0]] }, 'name'],
      [{ name: '   ', circuits: [keys[0]] }, 'name'],
      [{ name: 'x' }, 'circuits'],
      [{ name: 'x', fromForecast: true, circuits: [keys[0]] }, 'circuits'],
      [{ name: 'x', fromForecast: 'perhaps' }, 'fromForecast'],
      [{ name: 'x', circuits: [] }, 'circuits'],
      [{ name: 'x', circuits: [keys[0], keys[0]] }, 'circuits'],
      [{ name: 'x', circuits: keys[0] }, 'circuits'],
      [{ name: 'x', circuits: [keys[0]], colour: 'red' }, 'colour'],
    ]
    for (const [body, parameter] of cases) {
      const res = await create(body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json(), JSON.stringify(body)).toMatchObject({ error: 'bad_request', parameter })
    }
  })

  it('refuses bad phase changes and wrong types, naming the parameter', async () => {
    const e = await created({ name: 'Transitions', circuits: [keys[0]] })
    const cases: [unknown, string][] = [
      [{ phase: 'restored' }, 'phase'],
      [{ phase: 'de-energized' }, 'phase'],
      [{ phase: 'watch' }, 'phase'],
      [{ phase: 'exploded' }, 'phase'],
      [{ phase: 3 }, 'phase'],
      [{}, 'phase'],
      [{ phase: 'warning', name: 'y' }, 'name'],
    ]
    for (const [body, parameter] of cases) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/psps/events/${e.id}`,
        headers: OPERATOR,
        payload: body as object,
      })
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json(), JSON.stringify(body)).toMatchObject({ error: 'bad_request', parameter })
    }
    const wrong: [unknown, string][] = [
      [{ deenergizedAt: 12 }, 'deenergizedAt'],
      [{ damageFound: 'maybe' }, 'damageFound'],
      [{ period: 'first' }, 'period'],
      [{ period: 1.5 }, 'period'],
      [{ deenergizedAt: at(1), wind: 60 }, 'wind'],
      [{}, 'body'],
    ]
    for (const [body, parameter] of wrong) {
      const res = await record(e.id, keys[0]!, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json(), JSON.stringify(body)).toMatchObject({ error: 'bad_request', parameter })
    }
    const badId = await t.app.inject({ url: '/api/psps/events/abc', headers: as('reader') })
    expect(badId.statusCode).toBe(400)
    expect(badId.json()).toMatchObject({ parameter: 'id' })
    expect((await read(e.id)).phase).toBe('watch')
  })
})

describe('repeated de-energization', () => {
  it('a de-energization after a restoration starts a new period; the report has a row for each', async () => {
    const e = await created({ name: 'Twice', circuits: [keys[0]] })
    const c = keys[0]!
    await recorded(e.id, c, { deenergizedAt: at(1), restoredAt: at(4) })
    const early = await record(e.id, c, { deenergizedAt: at(3) })
    expect(early.statusCode).toBe(400)
    expect(early.json()).toMatchObject({ parameter: 'deenergizedAt' })
    expect(early.json<{ message: string }>().message).toContain('previous restoration')
    let ev = await recorded(e.id, c, { deenergizedAt: at(6) })
    let circuit = ev.circuits[0]!
    expect(circuit.state).toBe('de-energized')
    expect(circuit.periods.map((p) => [p.period, p.deenergizedAt, p.restoredAt])).toEqual([
      [1, at(1), at(4)],
      [2, at(6), null],
    ])
    // The first period's restoration cannot move past the second de-energization.
    const overlap = await record(e.id, c, { period: 1, restoredAt: at(7) })
    expect(overlap.statusCode).toBe(400)
    expect(overlap.json()).toMatchObject({ parameter: 'restoredAt' })
    // …but it can be corrected within its bounds.
    await recorded(e.id, c, { period: 1, restoredAt: at(4.5) })
    ev = await recorded(e.id, c, { restoredAt: at(9) })
    circuit = ev.circuits[0]!
    expect(circuit.periods.map((p) => [p.period, p.deenergizedAt, p.restoredAt])).toEqual([
      [1, at(1), at(4.5)],
      [2, at(6), at(9)],
    ])
    const report = await t.app.inject({ url: `/api/psps/events/${e.id}/report`, headers: as('reader') })
    expect(report.statusCode).toBe(200)
    const body = report.json<{
      rows: { circuit: string; period: number; values: Record<string, unknown> }[]
    }>()
    expect(
      body.rows.map((r) => [r.circuit, r.period, r.values.deenergizedAt, r.values.durationHours]),
    ).toEqual([
      [c, 1, at(1), 3.5],
      [c, 2, at(6), 3],
    ])
  })
})

describe('permissions', () => {
  it('401 without a session, 403 without the permission', async () => {
    const e = await created({ name: 'Permissions', circuits: [keys[0]] })
    const urls = [
      ['GET', '/api/psps/events'],
      ['GET', `/api/psps/events/${e.id}`],
      ['GET', `/api/psps/events/${e.id}/report`],
      ['GET', `/api/psps/events/${e.id}/report.csv`],
      ['GET', `/api/psps/events/${e.id}/report.xlsx`],
      ['POST', '/api/psps/events'],
      ['PATCH', `/api/psps/events/${e.id}`],
      ['PATCH', `/api/psps/events/${e.id}/circuits/${keys[0]}`],
    ] as const
    for (const [method, url] of urls) {
      const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} })
      expect(res.statusCode, `${method} ${url}`).toBe(401)
      const forged = await t.app.inject({ method, url, headers: { authorization: 'Bearer forged' } })
      expect(forged.statusCode, `${method} ${url}`).toBe(401)
    }
    // Every member reads; only operators and administrators record.
    for (const [method, url] of urls.filter(([m]) => m === 'GET'))
      expect((await t.app.inject({ method, url, headers: as('reader') })).statusCode, url).toBe(200)
    const denied = [
      await create({ name: 'no', circuits: [keys[0]] }, as('reader')),
      await phase(e.id, 'warning', as('reader')),
      await record(e.id, keys[0]!, { deenergizedAt: at(1) }, as('reader')),
    ]
    for (const res of denied) {
      expect(res.statusCode).toBe(403)
      expect(res.json()).toMatchObject({ error: 'forbidden' })
    }
    const unchanged = await read(e.id)
    expect(unchanged.phase).toBe('watch')
    expect(unchanged.circuits[0]!.periods).toEqual([])
    expect((await create({ name: 'admin', circuits: [keys[0]] }, as('admin'))).statusCode).toBe(201)
  })
})

describe('audit', () => {
  it('records who created the event, changed its phase and recorded each time', async () => {
    const e = await created({ name: 'Audited', circuits: [keys[1]] })
    await phase(e.id, 'warning')
    await recorded(e.id, keys[1]!, { deenergizedAt: at(2) })
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/psps/events/${e.id}/circuits/${keys[1]}`,
      headers: as('admin'),
      payload: { restoredAt: at(5), notes: 'ok' },
    })
    expect(res.statusCode).toBe(200)
    const log = (await t.store.members.auditLog(50)).filter((a) => a.subject === `psps-event:${e.id}`)
    expect(log.map((a) => [a.event, a.memberId]).reverse()).toEqual([
      ['psps.event.created', 'member-operator'],
      ['psps.event.phase', 'member-operator'],
      ['psps.event.circuit', 'member-operator'],
      ['psps.event.circuit', 'member-admin'],
    ])
    const [restore, deenergize, change, creation] = log
    expect(creation!.detail).toMatchObject({ name: 'Audited', circuits: [keys[1]] })
    expect(change!.detail).toEqual({ from: 'watch', to: 'warning' })
    expect(deenergize!.detail).toMatchObject({
      circuit: keys[1],
      period: 1,
      created: true,
      deenergizedAt: at(2),
    })
    expect(restore!.detail).toMatchObject({
      circuit: keys[1],
      period: 1,
      created: false,
      restoredAt: at(5),
      notes: 'ok',
    })
    for (const a of log) expect(Math.abs(a.at - Date.now())).toBeLessThan(60_000)
  })
})

describe('post-event report', () => {
  const report = operationsConfig.pspsReport!
  const csvUrl = (id: number) => `/api/psps/events/${id}/report.csv`
  /** A known event: circuit A off twice, circuit B once with a patrol and damage, circuit C never. */
  async function knownEvent() {
    const [a, b, c] = [keys[0]!, keys[1]!, keys[2]!]
    const e = await created({ name: 'Known event', circuits: [a, b, c] })
    await recorded(e.id, a, { deenergizedAt: at(1), restoredAt: at(4) })
    await recorded(e.id, a, { deenergizedAt: at(6) })
    await recorded(e.id, a, { restoredAt: at(9.25) })
    await recorded(e.id, b, { deenergizedAt: at(1.5), patrolledAt: at(3) })
    await recorded(e.id, b, { restoredAt: at(5), damageFound: true, notes: '=HYPERLINK("x"), span 14' })
    const features = await t.store.allFeatures(rollup.dataset)
    const props = (k: string) => features.find((f) => f.properties[rollup.key] === k)!.properties
    return { e, a, b, pa: props(a), pb: props(b) }
  }
  const sent = (hours: number, event = 'sent') =>
    t.store.delivery.log({
      at: base + hours * HOUR,
      jobId: null,
      memberId: 'member-reader',
      channel: 'sms',
      kind: 'alert',
      alertIds: ['red-flag:1'],
      event,
      attempt: 1,
      detail: null,
    })

  beforeAll(async () => {
    await sent(0.5)
    await sent(2)
    await sent(8)
    await sent(1, 'queued') // not a notification sent
    await sent(-200) // before the lookback window
  })

  it('answers the rows as JSON: one per circuit per de-energization, the configured columns, totals', async () => {
    const { e, a, b, pa, pb } = await knownEvent()
    const res = await t.app.inject({ url: `/api/psps/events/${e.id}/report`, headers: as('reader') })
    expect(res.statusCode).toBe(200)
    const body = res.json<{
      columns: { field: string; title: string; kind: string }[]
      rows: { circuit: string; period: number; values: Record<string, unknown> }[]
      totals: Record<string, number | null>
    }>()
    expect(body.columns.map((c) => [c.field, c.title])).toEqual(report.columns.map((c) => [c.field, c.title]))
    expect(body.rows.map((r) => [r.circuit, r.period])).toEqual([
      [a, 1],
      [a, 2],
      [b, 1],
    ])
    const n = (v: unknown) => Number(v)
    expect(body.rows[0]!.values).toMatchObject({
      circuit: a,
      deenergizedAt: at(1),
      restoredAt: at(4),
      durationHours: 3,
      customersResidential: null,
      customersOther: pa.customers_impacted,
      customersTotal: pa.customers_impacted,
      medicalBaseline: pa.medical_certificates,
      criticalFacilities: pa.critical_infrastructure,
      firstNotificationAt: at(0.5),
      notificationTimes: `${at(0.5)}; ${at(2)}`,
    })
    expect(body.rows[1]!.values).toMatchObject({
      durationHours: 3.25,
      notificationTimes: `${at(0.5)}; ${at(2)}; ${at(8)}`,
    })
    expect(body.rows[2]!.values).toMatchObject({ patrolledAt: at(3), damageFound: 'Yes', durationHours: 3.5 })
    expect(body.totals).toMatchObject({
      durationHours: 9.75,
      customersResidential: null,
      customersTotal: 2 * n(pa.customers_impacted) + n(pb.customers_impacted),
      medicalBaseline: 2 * n(pa.medical_certificates) + n(pb.medical_certificates),
      criticalFacilities: 2 * n(pa.critical_infrastructure) + n(pb.critical_infrastructure),
    })
  })

  it('report.csv: titles, one line per row, a totals line, checked cell by cell', async () => {
    const { e, a, b, pa, pb } = await knownEvent()
    const res = await t.app.inject({ url: csvUrl(e.id), headers: as('reader') })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toBe(`attachment; filename="psps-event-${e.id}-report.csv"`)
    const facilities = (p: typeof pa) =>
      Number(p.critical_infrastructure) > 0 ? `unspecified: ${p.critical_infrastructure}` : ''
    const total = (f: (p: typeof pa) => unknown) => String(2 * Number(f(pa)) + Number(f(pb)))
    const lines = res.body.split('\r\n')
    expect(lines.at(-1)).toBe('')
    // prettier-ignore
    expect(lines.slice(0, -1)).toEqual([
      report.columns.map((c) => c.title).join(','),
      [a, at(1), at(4), '3', '', '', '', pa.customers_impacted, pa.customers_impacted, pa.medical_certificates, pa.critical_infrastructure, facilities(pa), '', '', at(0.5), `${at(0.5)}; ${at(2)}`].join(','),
      [a, at(6), at(9.25), '3.25', '', '', '', pa.customers_impacted, pa.customers_impacted, pa.medical_certificates, pa.critical_infrastructure, facilities(pa), '', '', at(0.5), `${at(0.5)}; ${at(2)}; ${at(8)}`].join(','),
      [b, at(1.5), at(5), '3.5', '', '', '', pb.customers_impacted, pb.customers_impacted, pb.medical_certificates, pb.critical_infrastructure, facilities(pb), at(3), 'Yes', at(0.5), `${at(0.5)}; ${at(2)}`].join(','),
      ['Total', '', '', '9.75', '', '', '', total((p) => p.customers_impacted), total((p) => p.customers_impacted), total((p) => p.medical_certificates), total((p) => p.critical_infrastructure), '', '', '', '', ''].join(','),
    ])
  })

  it('report.xlsx: a real workbook with typed cells and a totals row, read back with exceljs', async () => {
    const { e, a, b, pa, pb } = await knownEvent()
    const res = await t.app.inject({ url: `/api/psps/events/${e.id}/report.xlsx`, headers: as('reader') })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('Report')!
    expect(sheet.rowCount).toBe(5)
    const values = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1)
    expect(values(1)).toEqual(report.columns.map((c) => c.title))
    expect(sheet.getRow(1).font?.bold).toBe(true)
    const d = (h: number) => new Date(base + h * HOUR)
    const facilities = (p: typeof pa) =>
      Number(p.critical_infrastructure) > 0 ? `unspecified: ${p.critical_infrastructure}` : ''
    // Empty cells read back as undefined (sparse rows).
    // prettier-ignore
    const expected = [
      [a, d(1), d(4), 3, undefined, undefined, undefined, pa.customers_impacted, pa.customers_impacted, pa.medical_certificates, pa.critical_infrastructure, facilities(pa) || undefined, undefined, undefined, d(0.5), `${at(0.5)}; ${at(2)}`],
      [a, d(6), d(9.25), 3.25, undefined, undefined, undefined, pa.customers_impacted, pa.customers_impacted, pa.medical_certificates, pa.critical_infrastructure, facilities(pa) || undefined, undefined, undefined, d(0.5), `${at(0.5)}; ${at(2)}; ${at(8)}`],
      [b, d(1.5), d(5), 3.5, undefined, undefined, undefined, pb.customers_impacted, pb.customers_impacted, pb.medical_certificates, pb.critical_infrastructure, facilities(pb) || undefined, d(3), 'Yes', d(0.5), `${at(0.5)}; ${at(2)}`],
    ]
    for (const [i, row] of expected.entries()) {
      const got = values(i + 2)
      for (const [j, want] of row.entries()) expect(got[j], `row ${i + 2} column ${j + 1}`).toEqual(want)
    }
    // Dates are date cells, counts and hours numbers.
    expect(sheet.getCell('B2').type).toBe(ExcelJS.ValueType.Date)
    expect(sheet.getCell('B2').numFmt).toBe('yyyy-mm-dd hh:mm:ss')
    expect(sheet.getCell('D2').type).toBe(ExcelJS.ValueType.Number)
    expect(sheet.getCell('H2').type).toBe(ExcelJS.ValueType.Number)
    const totals = values(5)
    expect(totals[0]).toBe('Total')
    expect(totals[3]).toBe(9.75)
    expect(totals[7]).toBe(2 * Number(pa.customers_impacted) + Number(pb.customers_impacted))
    expect(totals[9]).toBe(2 * Number(pa.medical_certificates) + Number(pb.medical_certificates))
    expect(sheet.getRow(5).font?.bold).toBe(true)
    const timeline = book.getWorksheet('Timeline')!
    expect((timeline.getRow(2).values as unknown[]).slice(1, 3)).toEqual(['Known event', 'watch'])
  })
})

describe('notifications beside each phase', () => {
  it('answers the alert deliveries sent while each phase lasted', async () => {
    const e = await created({ name: 'Notified', circuits: [keys[0]] })
    const log = (event: string) =>
      t.store.delivery.log({
        at: Date.now(),
        jobId: 7,
        memberId: 'member-reader',
        channel: 'email',
        kind: 'digest',
        alertIds: ['a:1', 'a:2'],
        event,
        attempt: 1,
        detail: null,
      })
    await log('sent')
    await log('failed')
    await new Promise((r) => setTimeout(r, 5))
    await phase(e.id, 'warning')
    await new Promise((r) => setTimeout(r, 5))
    await log('sent')
    const ev = await read(e.id)
    expect(ev.phases.map((p) => p.notifications.length)).toEqual([1, 1])
    expect(ev.phases[1]!.notifications[0]).toMatchObject({
      channel: 'email',
      kind: 'digest',
      alertIds: ['a:1', 'a:2'],
    })
  })
})
