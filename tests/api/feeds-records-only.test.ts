import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { feedsConfig, type FeedsConfig } from '../../src/shared/config'
import { buildApp } from '../../src/server/app'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { AUTH, tempDir, testVerifier } from './testApp'

// nws-fire-weather on the synthetic NM sample without a zones file: the Red Flag Warning has a
// polygon, the Fire Weather Watch only zone codes. The watch is kept as a record — in the records
// API and OGC items (geometry null), never in tiles, bbox queries or alerts.
const FIX = path.resolve(import.meta.dirname, '../fixtures/feeds')
const NOW = Date.parse('2024-07-18T20:00:00Z')
let app: FastifyInstance
let store: AppStore
let dataDir = ''

const get = (url: string) => app.inject({ method: 'GET', url, headers: AUTH })

function config(): FeedsConfig {
  const nws = feedsConfig.feeds.find((f) => f.id === 'nws-fire-weather')
  if (!nws) throw new Error('no nws-fire-weather feed')
  return {
    ...feedsConfig,
    feeds: [
      {
        ...nws,
        source: { file: path.join(FIX, 'synthetic/nws_fire_weather_nm_SYNTHETIC.json') },
      },
    ],
  }
}

function tileOf(lon: number, lat: number, z: number): string {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  return `${z}/${Math.floor(((lon + 180) / 360) * n)}/${Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)}`
}

beforeAll(async () => {
  dataDir = tempDir('emberline-feeds-records-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  // One PSPS circuit through the warning's polygon (-106.9..-106.3, 34.9..35.4), one far away.
  await store.replaceDataset('public_safety_power_shutoff', [
    {
      geometry: {
        type: 'LineString',
        coordinates: [
          [-106.7, 35.1],
          [-106.5, 35.2],
        ],
      },
      properties: { identifier: 'INSIDE-1' },
    },
    {
      geometry: {
        type: 'LineString',
        coordinates: [
          [-104.0, 32.5],
          [-103.9, 32.6],
        ],
      },
      properties: { identifier: 'FAR-2' },
    },
  ])
  app = await buildApp({
    dataDir,
    demo: false,
    store,
    verifier: testVerifier,
    feeds: { config: config(), schedule: false, now: () => NOW },
  })
  const [r] = await app.feeds.pollOnce()
  expect(r).toMatchObject({ ok: true, summary: { kept: 2, withoutGeometry: 1, stored: 2 } })
}, 60_000)

afterAll(async () => {
  await app.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

interface Rec {
  id: number
  event: string
  bbox: number[] | null
}

describe('zone-only alerts kept as records', () => {
  it('the records API lists both, the zone-only watch with bbox null', async () => {
    const res = await get('/api/data/red_flag_warnings/records?limit=10')
    expect(res.statusCode).toBe(200)
    const body = res.json<{ total: number; records: Rec[] }>()
    expect(body.total).toBe(2)
    expect(body.records.map((r) => [r.event, r.bbox === null])).toEqual([
      ['Red Flag Warning', false],
      ['Fire Weather Watch', true],
    ])
    const filtered = await get(
      `/api/data/red_flag_warnings/records?filters=${encodeURIComponent(JSON.stringify({ field: 'severity', value: 'Moderate' }))}`,
    )
    expect(filtered.json<{ total: number; records: Rec[] }>()).toMatchObject({
      total: 1,
      records: [{ event: 'Fire Weather Watch', bbox: null }],
    })
    // The dataset's extent is the warning's alone.
    expect(await store.info('red_flag_warnings')).toMatchObject({
      count: 2,
      bbox: [-106.9, 34.9, -106.3, 35.4],
    })
  })

  it('tiles draw only the located warning', async () => {
    for (const z of [5, 9]) {
      const res = await get(`/api/tiles/red_flag_warnings/mvt/${tileOf(-106.6, 35.1, z)}`)
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-tile-features']).toBe('1')
    }
    const away = await get(`/api/tiles/red_flag_warnings/mvt/${tileOf(-104, 33, 9)}`)
    expect([200, 204]).toContain(away.statusCode)
    expect(Number(away.headers['x-tile-features'] ?? 0)).toBe(0)
  })

  it('alerts see only the located warning (one circuit inside it), and evaluation does not fail', async () => {
    const evaluation = await app.alertsEngine.evaluate()
    const alerts = evaluation.alerts.filter((a) => a.ruleId === 'red-flag-over-psps-circuit')
    expect(alerts.map((a) => a.assets.map((x) => x.label))).toEqual([['INSIDE-1']])
    expect((await get('/api/alerts')).statusCode).toBe(200)
  })

  it('OGC items: the watch has geometry null, a bbox query leaves it out, its own item too', async () => {
    const all = await get('/ogc/collections/red_flag_warnings/items?limit=10')
    expect(all.statusCode).toBe(200)
    const features = all.json<{
      features: { id: number; geometry: unknown; properties: { event: string } }[]
    }>().features
    expect(features.map((f) => [f.properties.event, f.geometry === null])).toEqual([
      ['Red Flag Warning', false],
      ['Fire Weather Watch', true],
    ])
    const boxed = await get('/ogc/collections/red_flag_warnings/items?bbox=-180,-90,180,90')
    expect(
      boxed.json<{ features: { properties: { event: string } }[] }>().features.map((f) => f.properties.event),
    ).toEqual(['Red Flag Warning'])
    const watch = features[1]
    const one = await get(`/ogc/collections/red_flag_warnings/items/${String(watch?.id)}`)
    expect(one.statusCode).toBe(200)
    expect(one.json<{ geometry: unknown; properties: { event: string } }>()).toMatchObject({
      geometry: null,
      properties: { event: 'Fire Weather Watch' },
    })
  })

  it('exports: GeoJSON gives the watch geometry null; a GeoPackage holds it with a NULL geometry and a finite extent', async () => {
    const geojson = await get('/api/export/red_flag_warnings?format=geojson')
    expect(geojson.statusCode).toBe(200)
    const fc = JSON.parse(geojson.body) as {
      features: { geometry: unknown; properties: { event: string } }[]
    }
    expect(fc.features.map((f) => [f.properties.event, f.geometry === null])).toEqual([
      ['Red Flag Warning', false],
      ['Fire Weather Watch', true],
    ])
    const gpkg = await get('/api/export/red_flag_warnings?format=gpkg')
    expect(gpkg.statusCode).toBe(200)
    const file = path.join(dataDir, 'rfw.gpkg')
    fs.writeFileSync(file, gpkg.rawPayload)
    const run = promisify(execFile)
    const { stdout: info } = await run('ogrinfo', ['-ro', '-so', file, 'red_flag_warnings'])
    expect(info).toMatch(/Feature Count: 2/)
    // The warning's polygon alone: -106.9..-106.3, 34.9..35.4 (an empty geometry once gave ±inf).
    const extent = /Extent: \(([-\d.]+), ([-\d.]+)\) - \(([-\d.]+), ([-\d.]+)\)/.exec(info)
    expect(extent?.slice(1).map(Number)).toEqual([-106.9, 34.9, -106.3, 35.4])
    const { stdout, stderr } = await run('/usr/bin/python3', [
      '-m',
      'osgeo_utils.samples.validate_gpkg',
      file,
    ])
    expect(`${stdout}${stderr}`.trim()).toBe('')
  })
})
