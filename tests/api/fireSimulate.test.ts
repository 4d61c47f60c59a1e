import type { MultiPolygon, Position } from 'geojson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsConfig } from '../../src/shared/config'
import type { FireWhatIfInfo, FireWhatIfResult } from '../../src/shared/fireSim/wireTypes'
import { gridCatalog, windowHours } from '../../src/server/grids/gridCatalog'
import { WIND_U_GRID, WIND_V_GRID } from '../../src/server/grids/windGrid'
import { decodeParts } from '../../src/server/store/geometryCodec'
import { WHAT_IF_LANDSCAPE } from '../../src/server/fireSim/fireSimRoutes'
import { AUTH, seededApp, type TestApp } from './testApp'

// A what-if fire on a landscape of uniform GR2 grass (one square of non-burnable NB1 urban fuel) under a
// 20 mph west wind, around a circuit of the seeded demo and the critical facility nearest it.
const GR2 = 102
const NB1 = 91
const CELLS = 400
let half = 0.2
let t: TestApp
let centre: [number, number]
let facility: { id: number; name: string; lonLat: [number, number] }
let circuit: { id: number; key: string; customers: number; vertex: [number, number] }
const urban = (c: [number, number]): [number, number] => [c[0] - 0.12, c[1] + 0.12]

function firstPosition(geom: Uint8Array): [number, number] {
  const p = decodeParts(geom)[0]![0]![0]!
  return [p[0]!, p[1]!]
}

beforeAll(async () => {
  t = await seededApp({ buildings: 500 })
  // A circuit of the Planning Mode dataset, and the critical facility nearest its first vertex.
  const planning = operationsConfig.planning!
  const c = (await t.store.allFeatures(planning.dataset))[0]!
  circuit = {
    id: c.id,
    key: String(c.properties[planning.key]),
    customers: Number(c.properties[planning.customers]),
    vertex: firstPosition(c.geom),
  }
  centre = circuit.vertex
  const distance = (p: [number, number]) => Math.hypot(p[0] - centre[0], p[1] - centre[1])
  const f = (await t.store.allFeatures('critical_infrastructure'))
    .map((x) => ({ x, p: firstPosition(x.geom) }))
    .sort((a, b) => distance(a.p) - distance(b.p))[0]!
  facility = { id: f.x.id, name: String(f.x.properties['name']), lonLat: f.p }
  half = Math.max(0.2, distance(f.p) + 0.15)
  // The landscape: GR2 everywhere but one NB1 square north-west of the circuit.
  const west = centre[0] - half
  const north = centre[1] + half
  const data = new Float32Array(CELLS * CELLS).fill(GR2)
  const d = (2 * half) / CELLS
  const [ux, uy] = urban(centre)
  for (let r = 0; r < CELLS; r++)
    for (let col = 0; col < CELLS; col++) {
      const lon = west + (col + 0.5) * d
      const lat = north - (r + 0.5) * d
      if (Math.abs(lon - ux) < 0.02 && Math.abs(lat - uy) < 0.02) data[r * CELLS + col] = NB1
    }
  const shape = { nx: CELLS, ny: CELLS, west, east: centre[0] + half, south: centre[1] - half, north }
  await t.store.grids.replaceGrid(WHAT_IF_LANDSCAPE.fuelGrid, [{ ...shape, data }], 'test: uniform GR2')
  const hours = windowHours(gridCatalog())
  const wind = (v: number) =>
    Array.from({ length: hours }, () => ({ ...shape, nx: 4, ny: 4, data: new Float32Array(16).fill(v) }))
  // u: mph towards the east (a west wind), v: 0.
  await t.store.grids.replaceGrid(WIND_U_GRID, wind(20), 'test: west wind')
  await t.store.grids.replaceGrid(WIND_V_GRID, wind(0), 'test: west wind')
}, 120_000)

afterAll(async () => {
  await t?.close()
})

const simulate = (body: unknown, headers: Record<string, string> = AUTH) =>
  t.app.inject({ method: 'POST', url: '/api/fire/simulate', headers, payload: body as object })

/** [west, south, east, north] of a MultiPolygon. */
function bboxOf(g: MultiPolygon): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const poly of g.coordinates)
    for (const p of poly[0] as Position[]) {
      b[0] = Math.min(b[0], p[0]!)
      b[1] = Math.min(b[1], p[1]!)
      b[2] = Math.max(b[2], p[0]!)
      b[3] = Math.max(b[3], p[1]!)
    }
  return b
}

describe('POST /api/fire/simulate', () => {
  it('needs a session', async () => {
    const body = { lon: centre[0], lat: centre[1] }
    expect((await simulate(body, {})).statusCode).toBe(401)
    expect((await simulate(body, { authorization: 'Bearer nope' })).statusCode).toBe(401)
  })

  it('refuses bad, huge and wrong-type numbers, naming the parameter', async () => {
    const [lon, lat] = centre
    const cases: [unknown, string][] = [
      [{ lat }, 'lon'],
      [{ lon: 'abc', lat }, 'lon'],
      [{ lon: 1e6, lat }, 'lon'],
      [{ lon, lat: -91 }, 'lat'],
      [{ lon, lat: [lat] }, 'lat'],
      [{ lon, lat, hours: 13 }, 'hours'],
      [{ lon, lat, hours: 0 }, 'hours'],
      [{ lon, lat, hours: 2.5 }, 'hours'],
      [{ lon, lat, hour: 100_000 }, 'hour'],
      [{ lon, lat, hour: -1 }, 'hour'],
      [{ lon, lat, extra: 1 }, 'extra'],
    ]
    for (const [body, parameter] of cases) {
      const res = await simulate(body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json<{ parameter: string }>().parameter, JSON.stringify(body)).toBe(parameter)
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/fire/simulate',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: '{"lon":',
    })
    expect(notJson.statusCode).toBe(400)
  })

  it('refuses a point outside the landscape and one on fuel that does not burn, saying why', async () => {
    const outside = await simulate({ lon: centre[0] + half + 0.5, lat: centre[1] })
    expect(outside.statusCode).toBe(400)
    expect(outside.json()).toMatchObject({ error: 'bad_request', parameter: 'lon' })
    expect(outside.json<{ message: string }>().message).toMatch(/outside the fire landscape/)
    const [ux, uy] = urban(centre)
    const town = await simulate({ lon: ux, lat: uy, hour: 0 })
    expect(town.statusCode).toBe(422)
    expect(town.json<{ message: string }>().message).toMatch(/does not burn: NB1/)
  })

  it('spreads nested hourly isochrones downwind and lists the facility it burns over', async () => {
    // 300 m upwind (west) of the facility.
    const lon = facility.lonLat[0] - 300 / (111_320 * Math.cos((facility.lonLat[1] * Math.PI) / 180))
    const res = await simulate({ lon, lat: facility.lonLat[1], hour: 0, hours: 3 })
    expect(res.statusCode, res.body).toBe(200)
    const r = res.json<FireWhatIfResult>()
    expect(r.hours).toBe(3)
    expect(r.hour).toBe(0)
    expect(Date.parse(r.startTime)).not.toBeNaN()
    expect(r.isochrones.features.map((f) => f.properties.hour)).toEqual([1, 2, 3])
    const boxes = r.isochrones.features.map((f) => bboxOf(f.geometry as MultiPolygon))
    for (let k = 1; k < boxes.length; k++) {
      const [a, b] = [boxes[k - 1]!, boxes[k]!]
      // each hour holds the one before…
      expect(b[0]).toBeLessThanOrEqual(a[0] + 1e-9)
      expect(b[2]).toBeGreaterThan(a[2])
      // …and grows more downwind (east) than upwind (west)
      expect(b[2] - a[2]).toBeGreaterThan(2 * (a[0] - b[0]))
    }
    expect(r.burnedAcres).toBeGreaterThan(10)
    expect(r.perimeter?.type).toBe('MultiPolygon')
    expect(r.provenance).toMatch(/fuel_model/)
    expect(r.provenance).toMatch(/wind_u/)
    const found = r.inside.criticalFacilities.find((f) => f.id === facility.id)
    expect(found).toMatchObject({
      dataset: 'critical_infrastructure',
      label: facility.name,
      href: `/ogc/collections/critical_infrastructure/items/${facility.id}`,
    })
    expect(r.inside.counts.criticalFacilities).toBeGreaterThanOrEqual(1)
    // the link answers the feature
    const item = await t.app.inject({ url: found!.href, headers: AUTH })
    expect(item.statusCode).toBe(200)
  })

  it('lists a circuit crossing the burned area and counts its customers', async () => {
    const [vx, vy] = circuit.vertex
    const lon = vx - 200 / (111_320 * Math.cos((vy * Math.PI) / 180))
    const res = await simulate({ lon, lat: vy, hour: 0, hours: 2 })
    expect(res.statusCode, res.body).toBe(200)
    const r = res.json<FireWhatIfResult>()
    const found = r.inside.circuits.find((c) => c.id === circuit.id)
    expect(found).toMatchObject({ label: circuit.key, customers: circuit.customers })
    expect(r.inside.customers).toBeGreaterThanOrEqual(circuit.customers)
    expect(r.inside.customers).toBe(r.inside.circuits.reduce((s, c) => s + (c.customers ?? 0), 0))
  })

  it('GET tells the hours and the landscape extent', async () => {
    expect((await t.app.inject({ url: '/api/fire/simulate' })).statusCode).toBe(401)
    const res = await t.app.inject({ url: '/api/fire/simulate', headers: AUTH })
    expect(res.statusCode).toBe(200)
    const info = res.json<FireWhatIfInfo>()
    expect(info.validTimes).toHaveLength(info.hours)
    expect(info.currentHour).toBeGreaterThanOrEqual(0)
    expect(info.maxHours).toBe(12)
    expect(info.bbox![0]).toBeCloseTo(centre[0] - half, 6)
  })
})
