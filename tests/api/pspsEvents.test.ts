import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { buildPspsEvent } from '../../src/server/operations/pspsEvent'
import { seedDemo } from '../../src/demo/seedDemo'
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
  await seedDemo(store, { buildings: 200, steps: [] })
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
