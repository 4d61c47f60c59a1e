import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { currentWindowHour } from '../../src/server/grids/forecastWindow'
import { gridCatalog, windowSettings } from '../../src/server/grids/gridCatalog'
import { seedGrids } from '../../src/demo/grids/seedGrids'
import { parseHexColor } from '../../src/shared/colorRamp'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'

const TOKEN = 'grid-test-token'
const auth = { authorization: `Bearer ${TOKEN}` }
const verifier = {
  verify: async (t: string) =>
    t === TOKEN
      ? {
          memberId: 'm',
          sessionId: 's',
          organizationId: 'o',
          roles: [],
          expiresAt: new Date(Date.now() + 3.6e6),
        }
      : null,
}
const FIRE = { name: 'Test Fire', lon: -106.4, lat: 35.9, acres: 12000, percentContained: 30 }
/** New Mexico at 0.03° (207×192, a multiple of the 3×3 weather blocks): fast enough for tests, same geography. */
const SHAPE = { nx: 207, ny: 192, west: -109.08, east: -102.87, south: 31.27, north: 37.03 }

let app: FastifyInstance
let dir: string
let store: AppStore

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-grids-'))
  store = await openDataDirStore(dir, defaultCatalog())
  app = await buildApp({ dataDir: dir, demo: true, store, verifier })
  await seedGrids(app.store, { seed: 42, fires: [FIRE], shape: SHAPE })
  await app.ready()
}, 120_000)

afterAll(async () => {
  await app.close()
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** z/x/y of the tile containing a lon/lat and the pixel in it. */
function locate(lon: number, lat: number, z: number): { x: number; y: number; px: number; py: number } {
  const world = 256 * 2 ** z
  const gx = ((lon + 180) / 360) * world
  const s = Math.sin((lat * Math.PI) / 180)
  const gy = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world
  return {
    x: Math.floor(gx / 256),
    y: Math.floor(gy / 256),
    px: Math.floor(gx % 256),
    py: Math.floor(gy % 256),
  }
}

async function tile(url: string) {
  const res = await app.inject({ url, headers: auth })
  return { res, png: res.statusCode === 200 ? PNG.sync.read(res.rawPayload) : null }
}

const px = (png: PNG, x: number, y: number): string =>
  [...png.data.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4)].join(',')

describe('raster tiles', () => {
  it('needs a session', async () => {
    const res = await app.inject({ url: '/api/tiles/slope/png/7/25/51' })
    expect(res.statusCode).toBe(401)
  })

  it('colours pixels with the legend colours for known grid values', async () => {
    const store = app.store.grids
    const before = (await store.grid('slope'))!
    // Slope 15 in the western half, 60 in the eastern half of a box around Albuquerque.
    const data = new Float32Array(100).map((_, k) => (k % 10 < 5 ? 15 : 60))
    await store.replaceGrid(
      'slope',
      [{ nx: 10, ny: 10, west: -107, east: -106, south: 34.5, north: 35.5, data }],
      'test',
    )
    try {
      const west = locate(-106.8, 35, 9)
      const east = locate(-106.2, 35, 9)
      const a = (await tile(`/api/tiles/slope/png/9/${west.x}/${west.y}`)).png!
      const b = (await tile(`/api/tiles/slope/png/9/${east.x}/${east.y}`)).png!
      expect(px(a, west.px, west.py)).toBe(parseHexColor('#c7e9c0').join(','))
      expect(px(b, east.px, east.py)).toBe(parseHexColor('#e6550d').join(','))
    } finally {
      await store.replaceGrid('slope', [before], 'synthetic')
    }
  })

  it('draws only vegetation legend class colours (classes never blend)', async () => {
    const legend = gridCatalog().grids.find((g) => g.id === 'vegetation')!.legend
    if (legend.type !== 'classes') throw new Error('vegetation has a classes legend')
    const classes = legend.classes
    const allowed = new Set(classes.map((c) => parseHexColor(c.color).join(',')))
    const t = locate(-106.3, 35.7, 8)
    const { png } = await tile(`/api/tiles/existing_vegetation_coverage/png/8/${t.x}/${t.y}`)
    const seen = new Set<string>()
    for (let k = 0; k < png!.data.length; k += 4)
      if (png!.data[k + 3]! > 0) seen.add([...png!.data.subarray(k, k + 4)].join(','))
    expect(seen.size).toBeGreaterThan(3)
    for (const c of seen) expect(allowed.has(c)).toBe(true)
  })

  it('gives the same grid cell the same colour at neighbouring zooms', async () => {
    // Cell centres of the 0.03° vegetation grid, so every zoom samples the same cell.
    for (const [lon, lat] of [
      [-109.08 + 0.03 * 90.5, 37.03 - 0.03 * 40.5],
      [-109.08 + 0.03 * 130.5, 37.03 - 0.03 * 100.5],
    ] as const) {
      const colours = []
      for (const z of [7, 8, 9]) {
        const t = locate(lon, lat, z)
        colours.push(
          px((await tile(`/api/tiles/existing_vegetation_coverage/png/${z}/${t.x}/${t.y}`)).png!, t.px, t.py),
        )
      }
      expect(new Set(colours).size).toBe(1)
      expect(colours[0]!.endsWith(',255')).toBe(true)
    }
  })

  it('is transparent outside the state and answers 204 away from the data', async () => {
    const border = locate(-103.0, 34.0, 7) // the Texas border
    const { png } = await tile(`/api/tiles/slope/png/7/${border.x}/${border.y}`)
    const alphas = new Set<number>()
    for (let k = 3; k < png!.data.length; k += 4) alphas.add(png!.data[k]!)
    expect(alphas.has(0)).toBe(true)
    expect(alphas.has(255)).toBe(true)
    const far = locate(10, 50, 7)
    expect((await tile(`/api/tiles/slope/png/7/${far.x}/${far.y}`)).res.statusCode).toBe(204)
  })

  it('changes the tile with the forecast hour and defaults to the current hour', async () => {
    const t = locate(-106.5, 35, 6)
    const base = `/api/tiles/public_safety_power_shutoff/next_psps_score/png/6/${t.x}/${t.y}`
    const h0 = await tile(`${base}?hour=0`)
    const h12 = await tile(`${base}?hour=12`)
    expect(h0.res.statusCode).toBe(200)
    expect(h0.res.rawPayload.equals(h12.res.rawPayload)).toBe(false)
    expect(h0.res.headers.etag).not.toBe(h12.res.headers.etag)
    const now = currentWindowHour(new Date(), windowSettings(true), 18)
    const dflt = await tile(base)
    expect(dflt.res.rawPayload.equals((await tile(`${base}?hour=${now}`)).res.rawPayload)).toBe(true)
  })

  it('sends ETag and Cache-Control and answers 304 to a matching If-None-Match', async () => {
    const t = locate(-106.5, 35, 7)
    const url = `/api/tiles/slope/png/7/${t.x}/${t.y}`
    const first = await app.inject({ url, headers: auth })
    expect(first.headers['cache-control']).toMatch(/max-age/)
    expect(first.headers['content-type']).toBe('image/png')
    const again = await app.inject({ url, headers: { ...auth, 'if-none-match': String(first.headers.etag) } })
    expect(again.statusCode).toBe(304)
  })

  it.each([
    ['hour=18', 'hour'],
    ['hour=-1', 'hour'],
    ['hour=soon', 'hour'],
  ])('answers 400 for a bad forecast hour (%s)', async (query, parameter) => {
    const res = await app.inject({ url: `/api/tiles/smoke/png/6/12/25?${query}`, headers: auth })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
  })

  it.each([
    ['7/128/50', 'x'],
    ['7/25/128', 'y'],
    ['7/-1/50', 'x'],
    ['abc/1/1', 'z'],
    ['30/1/1', 'z'],
  ])('answers 400 for bad coordinates (%s)', async (zxy, parameter) => {
    const res = await app.inject({ url: `/api/tiles/slope/png/${zxy}`, headers: auth })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
  })

  it('answers 404 outside the source zoom range', async () => {
    const res = await app.inject({ url: '/api/tiles/slope/png/2/0/1', headers: auth })
    expect(res.statusCode).toBe(404)
  })
})

describe('wind', () => {
  it('returns a tileset id and a grib2json u/v grid whose headers match the data', async () => {
    const { tileset_id } = (await app.inject({ url: '/api/data/wind_vectors/tileset', headers: auth })).json()
    expect(tileset_id).toMatch(/^wind_vectors-/)
    const res = await app.inject({ url: `/api/data/wind_vectors/grid/${tileset_id}?hour=3`, headers: auth })
    const [u, v] = res.json()
    expect(u.header).toMatchObject({
      parameterCategory: 2,
      parameterNumber: 2,
      forecastTime: 3,
      parameterUnit: 'mph',
    })
    expect(v.header.parameterNumber).toBe(3)
    for (const r of [u, v]) {
      expect(r.data).toHaveLength(r.header.nx * r.header.ny)
      expect(r.header.numberPoints).toBe(r.data.length)
      expect(r.header.lo1 + (r.header.nx - 1) * r.header.dx).toBeCloseTo(r.header.lo2, 4)
      expect(r.header.la1 - (r.header.ny - 1) * r.header.dy).toBeCloseTo(r.header.la2, 4)
    }
    // Its cells cover New Mexico (-109.05..-103.0, 31.33..37.0).
    const { lo1, lo2, la1, la2, dx, dy } = u.header
    expect(lo1 - dx / 2).toBeLessThanOrEqual(-109.05)
    expect(lo2 + dx / 2).toBeGreaterThanOrEqual(-103.0)
    expect(la1 + dy / 2).toBeGreaterThanOrEqual(37.0)
    expect(la2 - dy / 2).toBeLessThanOrEqual(31.33)
    const later = (
      await app.inject({ url: `/api/data/wind_vectors/grid/${tileset_id}?hour=9`, headers: auth })
    ).json()
    expect(later[0].data).not.toEqual(u.data)
  })

  it('answers 404 for an unknown tileset and 400 for a bad hour', async () => {
    const { tileset_id } = (await app.inject({ url: '/api/data/wind_vectors/tileset', headers: auth })).json()
    expect((await app.inject({ url: '/api/data/wind_vectors/grid/nope', headers: auth })).statusCode).toBe(
      404,
    )
    const bad = await app.inject({ url: `/api/data/wind_vectors/grid/${tileset_id}?hour=99`, headers: auth })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().parameter).toBe('hour')
  })

  it('fills the wind_vectors and smoke datasets for their attribute tables', async () => {
    const wind = (await app.inject({ url: '/api/data/wind_vectors/records?limit=1', headers: auth })).json()
    expect(wind.total).toBeGreaterThan(100)
    expect(Object.keys(wind.records[0])).toEqual(
      expect.arrayContaining(['valid_time', 'wind_speed_mph', 'wind_direction_deg', 'u_mph', 'v_mph']),
    )
    const smoke = (await app.inject({ url: '/api/data/smoke/records?limit=1', headers: auth })).json()
    expect(smoke.total).toBeGreaterThan(10)
    expect(smoke.records[0]).toMatchObject({ source_fire: 'Test Fire' })
  })
})

describe('smoke service', () => {
  it('builds working tile URLs from the last model run and the first inventory entry', async () => {
    const cfg = (await app.inject({ url: '/api/data/smoke/service/config', headers: auth })).json()
    const run = cfg.modelRuns[cfg.modelRuns.length - 1]
    const entry = cfg.inventory[0]
    expect(entry.hours).toHaveLength(18)
    // The plume drifts downwind (north-east) of the fire near Los Alamos.
    const t = locate(FIRE.lon + 0.3, FIRE.lat + 0.2, 8)
    const url = entry.tileUrl
      .replace('{run}', run.id)
      .replace('{hour}', '8')
      .replace('{z}', '8')
      .replace('{x}', String(t.x))
      .replace('{y}', String(t.y))
    const res = await app.inject({ url, headers: auth })
    expect(res.statusCode).toBe(200)
    const stale = await app.inject({ url: url.replace(run.id, '1999010100'), headers: auth })
    expect(stale.statusCode).toBe(404)
  })
})

describe('grid provenance (#32): legends and popups', () => {
  const validTimes = ['2026-11-27T13:00:00.000Z', '2026-11-27T14:00:00.000Z']
  const field = (base: number) => ({
    nx: 4,
    ny: 2,
    west: -107,
    south: 34,
    east: -105,
    north: 35,
    data: Float32Array.from([base, base + 1, base + 2, base + 3, base + 4, base + 5, NaN, base + 7]),
  })
  beforeAll(async () => {
    await app.store.grids.replaceGrid(
      'relative_humidity_next',
      [field(10), field(20)],
      'https://example.test/rh.grib2',
      {
        refTime: '2026-11-27T12:00:00.000Z',
        validTimes,
      },
    )
  })

  it('GET /api/grids lists each stored grid with its source, model run and valid times', async () => {
    expect((await app.inject({ url: '/api/grids' })).statusCode).toBe(401)
    const res = await app.inject({ url: '/api/grids', headers: auth })
    expect(res.statusCode).toBe(200)
    const grids = res.json().grids as { id: string }[]
    expect(grids.find((g) => g.id === 'relative_humidity_next')).toEqual({
      id: 'relative_humidity_next',
      title: 'Relative humidity (next PSPS window)',
      hours: 2,
      version: expect.stringMatching(/^[0-9a-f]+$/),
      source: 'https://example.test/rh.grib2',
      refTime: '2026-11-27T12:00:00.000Z',
      validTimes,
    })
    expect(grids.find((g) => g.id === 'slope')).toMatchObject({
      source: 'synthetic',
      refTime: null,
      validTimes: [],
    })
  })

  it('the popup query answers the value at the point with its valid time, model run and source', async () => {
    const info = (q: string) => app.inject({ url: `/api/sources/rh_next_png/info?${q}`, headers: auth })
    const res = await info('lon=-106.75&lat=34.75&z=9&hour=1')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      source: 'rh_next_png',
      features: [
        {
          layer: 'Relative humidity (next PSPS window)',
          attributes: {
            Value: expect.stringMatching(/^20(\.\d+)? /),
            'Valid time': validTimes[1],
            'Model run': '2026-11-27T12:00:00.000Z',
            Source: 'https://example.test/rh.grib2',
          },
        },
      ],
    })
    // No value (outside the grid, a no-data cell): no feature, so no popup.
    expect((await info('lon=10&lat=10&z=9&hour=0')).json()).toEqual({ source: 'rh_next_png', features: [] })
    expect((await info('lon=-105.75&lat=34.25&z=9&hour=0')).json().features).toEqual([])
    // An hour the import did not fill: no value; beyond the window: 400.
    expect((await info('lon=-106.75&lat=34.75&z=9&hour=5')).json().features).toEqual([])
    const bad = await info('lon=-106&lat=34.5&z=9&hour=18')
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ parameter: 'hour' })
    expect((await info('lat=34.5&z=9')).json()).toMatchObject({ parameter: 'lon' })
    expect(
      (await app.inject({ url: '/api/sources/rh_next_png/info?lon=-106&lat=34.5&z=9' })).statusCode,
    ).toBe(401)
  })
})
