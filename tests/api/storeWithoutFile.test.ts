import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { feedsConfig, layersConfig, type FeedsConfig } from '../../src/shared/config'
import { buildApp } from '../../src/server/app'
import { seedDemo } from '../../src/demo/seedDemo'
import { runFeed } from '../../src/server/feeds/runFeed'
import { importFeedInWorker } from '../../src/server/feeds/importFeedInWorker'
import type { Geometry } from 'geojson'
import type { AppStore } from '../../src/server/store/AppStore'
import { decodeParts, partsToGeometry } from '../../src/server/store/geometryCodec'
import type { FeatureInput, StoredFeature } from '../../src/server/store/Store'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openStore, type SqliteStore } from '../../src/server/store/sqliteStore'
import { promisedStore } from '../../src/server/store/testing/promisedStore'
import { saveTileData } from '../../src/server/tiles/saveTileData'
import { tileIndexesOf } from '../../src/server/tiles/tileIndexes'
import { AUTH, tempDir, testVerifier } from './testApp'

// The PostgreSQL store answers with promises and has no file. Its callers are checked here over
// the same seeded SQLite data seen both ways: `file` is the SQLite store as `npm start` has it
// (tile data built in worker threads, GeoPackage and feed imports in workers over the file);
// `none` answers every feature-side call with a promise on a later turn of the event loop and
// has no file (promisedStore), so every in-process path runs. Both must answer the same.

let dataDir = ''
let sqlite: SqliteStore
let none: AppStore
let fileApp: FastifyInstance
let noneApp: FastifyInstance

beforeAll(async () => {
  dataDir = tempDir('emberline-nofile-')
  sqlite = openStore(dataDir, defaultCatalog())
  none = promisedStore(sqlite)
  // Seeding through the asynchronous store: one transaction around awaited calls.
  await seedDemo(none, { buildings: 1500, steps: [] })
  fileApp = await buildApp({ dataDir, demo: true, store: sqlite, verifier: testVerifier })
  noneApp = await buildApp({ dataDir, demo: true, store: none, verifier: testVerifier })
}, 120_000)

afterAll(async () => {
  await tileIndexesOf(sqlite).pool?.close()
  await tileIndexesOf(none).pool?.close()
  await fileApp.close()
  await noneApp.close()
  sqlite.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const get = (app: FastifyInstance, url: string) => app.inject({ url, headers: AUTH })

function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  return [
    z,
    Math.floor(((lon + 180) / 360) * n),
    Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n),
  ]
}

/** Every vector source at an aggregated/thinned/full zoom around its first feature. */
function tileUrls(): string[] {
  const urls: string[] = []
  for (const source of layersConfig.sources) {
    if (source.type !== 'mvt') continue
    const rec = sqlite.records(source.dataset, [], 1, 0).records[0]
    const bbox = rec?.bbox as number[] | undefined
    if (!bbox) continue
    const [lon, lat] = [((bbox[0] ?? 0) + (bbox[2] ?? 0)) / 2, ((bbox[1] ?? 0) + (bbox[3] ?? 0)) / 2]
    const p = source.demoPath ?? source.path
    for (const z of new Set(
      [source.minzoom, 10, 14].map((k) => Math.min(Math.max(k, source.minzoom), source.maxzoom)),
    ))
      urls.push(`/api/tiles/${p}/mvt/${tileOf(lon, lat, z).join('/')}`)
  }
  return urls
}

async function sameTiles(urls: readonly string[]): Promise<number> {
  let drawn = 0
  for (const url of urls) {
    const [a, b] = [await get(fileApp, url), await get(noneApp, url)]
    expect(b.statusCode, url).toBe(a.statusCode)
    expect(b.headers['x-tile-features'], url).toBe(a.headers['x-tile-features'])
    if (a.statusCode !== 200) continue
    expect(b.rawPayload.equals(a.rawPayload), url).toBe(true)
    drawn += Number(a.headers['x-tile-features'] ?? 0) > 0 ? 1 : 0
  }
  return drawn
}

describe('a store without a file, answering with promises (as PostgreSQL)', () => {
  it('was seeded through its transaction: the same data the file store reads', async () => {
    expect(none.location).toBeNull()
    expect(await none.info('buildings')).toEqual(sqlite.info('buildings'))
    expect((await none.info('buildings')).count).toBe(1500)
    expect(await none.getMeta('demo_seed')).toBe(sqlite.getMeta('demo_seed'))
  })

  it('cuts the same tiles, building tile data in process from the store rows (one read per dataset)', async () => {
    const urls = tileUrls()
    expect(urls.length).toBeGreaterThan(10)
    const rows = vi.spyOn(sqlite, 'tileRows')
    try {
      // Inline (before warm-up): concurrent tiles of one dataset share one build.
      const buildings = urls.filter((u) => u.includes('/buildings/'))
      await Promise.all(buildings.map((u) => get(noneApp, u)))
      expect(rows.mock.calls.filter(([id]) => id === 'buildings')).toHaveLength(1)
      expect(await sameTiles(urls)).toBeGreaterThan(5)

      // Background builds after warm-up: no worker can open a file, so this process builds.
      await sqlite.replaceDataset(
        'buildings',
        [...sqlite.allFeatures('buildings')].slice(0, 900).map(asInput),
      )
      rows.mockClear()
      await tileIndexesOf(none).warm('worker')
      expect(rows.mock.calls.filter(([id]) => id === 'buildings')).toHaveLength(1)
      expect((await tileIndexesOf(none).get('buildings'))?.data.n).toBe(900)
      expect(await sameTiles(urls)).toBeGreaterThan(5)
      // No tile data file and no archive is written for a store without a file.
      expect(await saveTileData(none, 'buildings')).toBeNull()
      expect(fs.existsSync(path.join(dataDir, 'tile-index'))).toBe(false)
    } finally {
      rows.mockRestore()
    }
  }, 120_000)

  it('answers records, OGC items and collections, briefing and PSPS alike', async () => {
    for (const url of [
      '/api/data/buildings/records?limit=7&offset=3&sort=-height',
      '/ogc/collections/buildings/items?limit=5&bbox=-107,34,-105,36',
      '/ogc/collections/critical_infrastructure/items?limit=4&filter=type%3D%27Hospital%27',
      '/ogc/collections',
      '/api/psps/event',
      '/api/planning',
      '/api/mitigation',
    ]) {
      const [a, b] = [await get(fileApp, url), await get(noneApp, url)]
      expect(b.statusCode, url).toBe(a.statusCode)
      expect(stripStamps(b.body), url).toBe(stripStamps(a.body))
    }
    const brief = (await get(noneApp, '/api/briefing/sources')).json<{ datasets: { id?: string }[] }>()
    expect(brief.datasets).toHaveLength(defaultCatalog().datasets.length)
    expect(brief.datasets.every((d) => typeof d === 'object' && Object.keys(d).length > 1)).toBe(true)
  })

  it('exports GeoJSON and GeoPackage in process, with the rows the worker writes from the file', async () => {
    const url = '/api/export/critical_infrastructure?format='
    const [a, b] = [await get(fileApp, `${url}geojson`), await get(noneApp, `${url}geojson`)]
    expect(b.statusCode).toBe(200)
    expect(b.body).toBe(a.body)
    const rows: unknown[][] = []
    for (const app of [fileApp, noneApp]) {
      const res = await get(
        app,
        `${url}gpkg&filters=${encodeURIComponent(JSON.stringify({ field: 'type', value: 'Hospital' }))}`,
      )
      expect(res.statusCode).toBe(200)
      const file = path.join(tempDir('emberline-gpkg-'), 'x.gpkg')
      fs.writeFileSync(file, res.rawPayload)
      const db = new Database(file, { readonly: true })
      rows.push(db.prepare('SELECT * FROM critical_infrastructure ORDER BY fid').raw().all())
      db.close()
      fs.rmSync(path.dirname(file), { recursive: true, force: true })
    }
    expect(rows[0]?.length).toBeGreaterThan(0)
    expect(rows[1]).toEqual(rows[0])
  })

  it('imports a feed (parsed and mapped in the worker, written through the store here) and serves its rows', async () => {
    const feed = feedsConfig.feeds.find((f) => f.id === 'firms-viirs') as FeedsConfig['feeds'][number]
    const file = path.join(dataDir, 'viirs.csv')
    fs.writeFileSync(file, recentViirs())
    const before = (await none.info(feed.dataset)).version
    const r = await runFeed({ store: none, config: feedsConfig, now: Date.now() }, feed, {
      file,
      importer: importFeedInWorker,
    })
    if (!r.ok) throw new Error(r.error)
    expect(r.summary.stored).toBeGreaterThan(0)
    expect((await none.info(feed.dataset)).version).toBeGreaterThan(before)
    expect((await none.feeds.status(feed.id))?.lastSuccessAt).not.toBeNull()
    const records = (await get(noneApp, `/api/data/${feed.dataset}/records?limit=1000`)).json<{
      total: number
    }>()
    expect(records.total).toBe(r.summary.stored)

    // A body that cannot be read fails in the worker: nothing changes, the failure is recorded.
    fs.writeFileSync(file, '<!DOCTYPE html><html><body>Service Unavailable</body></html>')
    const version = (await none.info(feed.dataset)).version
    const bad = await runFeed({ store: none, config: feedsConfig, now: Date.now() }, feed, {
      file,
      importer: importFeedInWorker,
    })
    expect(bad.ok).toBe(false)
    expect((await none.info(feed.dataset)).version).toBe(version)
    expect((await none.feeds.status(feed.id))?.lastError).toBeTruthy()
  })
})

function asInput(f: StoredFeature): FeatureInput {
  return { geometry: partsToGeometry(decodeParts(f.geom), 'polygon') as Geometry, properties: f.properties }
}

/** Timestamps that differ between two answers of the same data. */
function stripStamps(body: string): string {
  return body.replace(/"(timeStamp|generatedAt)":"[^"]*"/g, '')
}

/** The real NM VIIRS sample re-dated to an hour ago (within the feed's keepHours). */
function recentViirs(): string {
  const d = new Date(Date.now() - 3_600_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`
  return fs
    .readFileSync(
      path.resolve(import.meta.dirname, '../fixtures/feeds/viirs_snpp_conus_7d_2025-11-05_nm.csv'),
      'utf8',
    )
    .replace(/\d{4}-\d{2}-\d{2},\d{4}/g, `${date},${time}`)
}
