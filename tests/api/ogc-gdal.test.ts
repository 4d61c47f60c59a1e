import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildGisAccessDoc } from '../../src/features/docs/buildGisAccessDoc'
import { AUTH, filtersQuery, seededApp, TEST_TOKEN, type TestApp } from './testApp'

// An outside reader: GDAL (gdal-bin, installed by scripts/ensure-tools.sh) opens the OGC API
// over HTTP on a loopback port with the session token in GDAL_HTTP_HEADERS, copies collections
// with ogr2ogr, reads a bbox-limited layer, and opens an exported GeoPackage.
const run = promisify(execFile)

let t: TestApp
let base = ''
let work = ''
const env = { ...process.env, GDAL_HTTP_HEADERS: `Authorization: Bearer ${TEST_TOKEN}`, CPL_DEBUG: 'OFF' }

async function gdal(tool: 'ogrinfo' | 'ogr2ogr', args: string[]): Promise<string> {
  const { stdout } = await run(tool, args, { env, timeout: 60_000, maxBuffer: 32 * 1024 * 1024 })
  return stdout
}

function featureCount(info: string): number {
  const m = /Feature Count: (\d+)/.exec(info)
  if (!m) throw new Error(`no feature count in:\n${info}`)
  return Number(m[1])
}

async function recordsTotal(dataset: string, query = ''): Promise<number> {
  const res = await t.app.inject({
    url: `/api/data/${dataset}/records?limit=1${query ? `&${query}` : ''}`,
    headers: AUTH,
  })
  expect(res.statusCode).toBe(200)
  return (res.json() as { total: number }).total
}

beforeAll(async () => {
  t = await seededApp({ buildings: 2500 })
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  work = path.join(t.dataDir, 'gdal')
  fs.mkdirSync(work)
}, 120_000)

afterAll(async () => {
  await t.close()
})

describe('GDAL reads the OGC API', () => {
  it('lists every collection with the token header, and none without it', async () => {
    const out = await gdal('ogrinfo', ['-ro', '-q', `OAPIF:${base}/ogc`])
    const listed = [...out.matchAll(/^\d+: (\w+)/gm)].map((m) => m[1])
    const collections = (
      (await t.app.inject({ url: '/ogc/collections', headers: AUTH })).json() as {
        collections: { id: string }[]
      }
    ).collections.map((c) => c.id)
    expect(collections.length).toBeGreaterThan(5)
    expect(listed).toEqual(collections)
    await expect(
      run('ogrinfo', ['-ro', '-q', `OAPIF:${base}/ogc`], {
        env: { ...process.env, GDAL_HTTP_HEADERS: '' },
        timeout: 60_000,
      }),
    ).rejects.toThrow()
  })

  it('ogr2ogr copies a collection to a GeoPackage with as many features as the records API total', async () => {
    const out = path.join(work, 'buildings.gpkg')
    await gdal('ogr2ogr', ['-f', 'GPKG', out, `OAPIF:${base}/ogc`, 'buildings', '-oo', 'PAGE_SIZE=1000'])
    const info = await gdal('ogrinfo', ['-ro', '-so', out, 'buildings'])
    expect(featureCount(info)).toBe(await recordsTotal('buildings'))
    expect(featureCount(info)).toBeGreaterThanOrEqual(2500)
    expect(info).toMatch(/area_ft2: (Real|Integer)/)
  })

  it('ogr2ogr with an attribute filter (GDAL 3.6 applies it itself, later versions send CQL2) gets the server CQL2 count', async () => {
    const out = path.join(work, 'ci.gpkg')
    await gdal('ogr2ogr', [
      '-f',
      'GPKG',
      out,
      `OAPIF:${base}/ogc`,
      'critical_infrastructure',
      '-where',
      "type = 'Hospital'",
    ])
    const count = featureCount(await gdal('ogrinfo', ['-ro', '-so', out, 'critical_infrastructure']))
    const eq = (
      (
        await t.app.inject({
          url: `/ogc/collections/critical_infrastructure/items?limit=1&filter=${encodeURIComponent("type = 'Hospital'")}`,
          headers: AUTH,
        })
      ).json() as { numberMatched: number }
    ).numberMatched
    expect(count).toBe(eq)
    expect(count).toBeGreaterThan(0)
  })

  it('ogrinfo reads a bbox-limited layer with the expected count', async () => {
    const box = ['-107', '34.5', '-105.5', '35.5']
    const info = await gdal('ogrinfo', [
      '-ro',
      '-so',
      '-spat',
      ...box,
      `OAPIF:${base}/ogc`,
      'critical_infrastructure',
    ])
    const points = (await t.store.allFeatures('critical_infrastructure')).filter((f) => {
      const [x, y] = Array.from(new Float64Array(new Uint8Array(f.geom).buffer).subarray(3, 5))
      return (
        (x as number) >= -107 && (x as number) <= -105.5 && (y as number) >= 34.5 && (y as number) <= 35.5
      )
    })
    expect(points.length).toBeGreaterThan(0)
    expect(points.length).toBeLessThan((await t.store.info('critical_infrastructure')).count)
    expect(featureCount(info)).toBe(points.length)
  })
})

describe('exports open in GDAL', () => {
  it('an exported GeoPackage of filtered rows opens with the dataset fields and the filtered count', async () => {
    const filters = filtersQuery({ field: 'customers', value: 50, type: 'gte' })
    const res = await t.app.inject({
      url: `/api/export/enhanced_powerline_safety_settings?format=gpkg&${filters}`,
      headers: AUTH,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toContain('enhanced_powerline_safety_settings.gpkg')
    const file = path.join(work, 'export.gpkg')
    fs.writeFileSync(file, res.rawPayload)
    const info = await gdal('ogrinfo', ['-ro', '-so', file, 'enhanced_powerline_safety_settings'])
    expect(featureCount(info)).toBe(await recordsTotal('enhanced_powerline_safety_settings', filters))
    expect(featureCount(info)).toBeGreaterThan(0)
    const dataset = t.store.dataset('enhanced_powerline_safety_settings')
    const fields = [...info.matchAll(/^(\w+): (Real|String|Integer|Integer64) /gm)].map((m) => [m[1], m[2]])
    expect(fields).toEqual(dataset?.fields.map((f) => [f.name, f.type === 'number' ? 'Real' : 'String']))
    expect(info).toMatch(/Geometry: (Line String|Multi Line String|Geometry)/)
    // GDAL's GeoPackage validator (python3-gdal, a dependency of gdal-bin) finds nothing to report.
    const { stdout, stderr } = await run(
      '/usr/bin/python3',
      ['-m', 'osgeo_utils.samples.validate_gpkg', file],
      {
        env,
      },
    )
    expect(`${stdout}${stderr}`.trim()).toBe('')
  })

  it('an unfiltered GeoPackage export (written by the worker thread) holds every row', async () => {
    const res = await t.app.inject({ url: '/api/export/buildings?format=gpkg', headers: AUTH })
    expect(res.statusCode).toBe(200)
    const file = path.join(work, 'all-buildings.gpkg')
    fs.writeFileSync(file, res.rawPayload)
    const info = await gdal('ogrinfo', ['-ro', '-so', file, 'buildings'])
    expect(featureCount(info)).toBe(await recordsTotal('buildings'))
    expect(info).toMatch(/Geometry: Polygon/)
    expect(info).toMatch(/^area_ft2: Real/m)
  })

  it('an exported GeoJSON opens with the same features', async () => {
    const filters = filtersQuery({ field: 'type', value: 'station' })
    const res = await t.app.inject({
      url: `/api/export/critical_infrastructure?format=geojson&${filters}`,
      headers: AUTH,
    })
    expect(res.statusCode).toBe(200)
    const file = path.join(work, 'export.geojson')
    fs.writeFileSync(file, res.rawPayload)
    const info = await gdal('ogrinfo', ['-ro', '-so', file, 'critical_infrastructure'])
    expect(featureCount(info)).toBe(await recordsTotal('critical_infrastructure', filters))
  })
})

describe('the Documentation section "Use in QGIS / GDAL"', () => {
  it('lists reachable URLs for every layer and GDAL commands that run as written', async () => {
    const doc = buildGisAccessDoc(base)
    // Tables of our own datasets (a table over another server's source has no dataset of ours).
    const tableDatasets = new Set(t.store.catalog.tables.flatMap((x) => (x.dataset ? [x.dataset] : [])))
    expect(new Set(doc.layers.flatMap((l) => (l.dataset ? [l.dataset] : [])))).toEqual(tableDatasets)
    for (const layer of doc.layers) {
      for (const url of [layer.collectionUrl, ...layer.tileJson.map((x) => x.url), ...layer.styles]) {
        if (!url) continue
        const res = await t.app.inject({ url: new URL(url).pathname, headers: AUTH })
        expect(res.statusCode, url).toBe(200)
      }
    }
    const buildings = doc.layers.find((l) => l.dataset === 'buildings')
    expect(buildings?.commands).toHaveLength(2)
    const [info, copy] = buildings?.commands ?? []
    const shell = { ...process.env, EMBERLINE_TOKEN: TEST_TOKEN, GDAL_HTTP_HEADERS: '' }
    const listed = await run('bash', ['-c', info ?? 'false'], { env: shell, cwd: work, timeout: 60_000 })
    expect(featureCount(listed.stdout)).toBe(await recordsTotal('buildings'))
    await run('bash', ['-c', copy ?? 'false'], { env: shell, cwd: work, timeout: 60_000 })
    const copied = await gdal('ogrinfo', ['-ro', '-so', path.join(work, 'buildings.gpkg'), 'buildings'])
    expect(featureCount(copied)).toBe(await recordsTotal('buildings'))
  })
})
