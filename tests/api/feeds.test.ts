import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { feedsConfig, type FeedsConfig } from '../../src/shared/config'
import { buildApp } from '../../src/server/app'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { AUTH, tempDir, testVerifier } from './testApp'

// A local HTTP server on 127.0.0.1 plays the public feeds; the app polls it (no internet needed).
const FIX = path.resolve(import.meta.dirname, '../fixtures/feeds')
const NOW = Date.now()
const pad = (n: number) => String(n).padStart(2, '0')

/** The real NM VIIRS sample with every detection re-dated to an hour before now (so alerts apply). */
function recentViirs(): string {
  const d = new Date(NOW - 3_600_000)
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`
  return fs
    .readFileSync(path.join(FIX, 'viirs_snpp_conus_7d_2025-11-05_nm.csv'), 'utf8')
    .replace(/\d{4}-\d{2}-\d{2},\d{4}/g, `${date},${time}`)
}

/** What /firms answers next: the CSV (ETag "v1", 304 when the client has it), a truncated body, or an HTML error page. */
let mode: 'csv' | 'truncated' | 'html' | 'bad-row' = 'csv'
const seen: { path: string; ifNoneMatch: string | undefined }[] = []
let server: http.Server
let base = ''
let app: FastifyInstance
let store: AppStore
let dataDir = ''
const body = recentViirs()
const evaluations: number[] = []

function config(): FeedsConfig {
  return {
    ...feedsConfig,
    defaults: { ...feedsConfig.defaults, retries: 0, timeoutSeconds: 5 },
    gridFeeds: [],
    feeds: [
      {
        ...(feedsConfig.feeds.find((f) => f.id === 'firms-viirs') as FeedsConfig['feeds'][number]),
        source: { url: `${base}/firms?key=\${FIRMS_MAP_KEY}&bbox=\${bbox}` },
      },
      {
        ...(feedsConfig.feeds.find((f) => f.id === 'hms-smoke') as FeedsConfig['feeds'][number]),
        enabled: false,
      },
    ],
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', ifNoneMatch: req.headers['if-none-match'] })
    if (mode === 'html') {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      return res.end('<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>')
    }
    if (mode === 'truncated') {
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Length': String(Buffer.byteLength(body)) })
      // Headers and part of the body go out, then the connection drops.
      return res.write(body.slice(0, 2000), () => setTimeout(() => res.destroy(), 20))
    }
    if (mode === 'bad-row') {
      const lines = body.split('\n')
      lines[2] = (lines[2] ?? '').replace(/^[^,]*,[^,]*,/, ',,') // line 3 loses its coordinates
      res.writeHead(200, { 'Content-Type': 'text/csv', ETag: '"v2"' })
      return res.end(lines.join('\n'))
    }
    if (req.headers['if-none-match'] === '"v1"') {
      res.writeHead(304, { ETag: '"v1"' })
      return res.end()
    }
    res.writeHead(200, {
      'Content-Type': 'text/csv',
      ETag: '"v1"',
      'Last-Modified': new Date(NOW).toUTCString(),
    })
    res.end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  dataDir = tempDir('emberline-feeds-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  // A distribution line through Albuquerque, near the sample's detection at -106.75367, 35.0498.
  await store.replaceDataset('distribution_lines', [
    {
      geometry: {
        type: 'LineString',
        coordinates: [
          [-106.77, 35.04],
          [-106.74, 35.06],
        ],
      },
      properties: { identifier: 'ABQ-101', circuit_length: 2, substation: 'Rio' },
    },
  ])
  app = await buildApp({
    dataDir,
    demo: false,
    store,
    verifier: testVerifier,
    feeds: { config: config(), schedule: false, env: { FIRMS_MAP_KEY: 'test-key' }, now: () => NOW },
  })
  app.alertsEngine.onEvaluated((e) => evaluations.push(e.alerts.length))
}, 60_000)

afterAll(async () => {
  await app.close()
  await store.close()
  server.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const get = (url: string, headers: Record<string, string> = AUTH) =>
  app.inject({ method: 'GET', url, headers })

function tileOf(lon: number, lat: number, z: number): string {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  return `${z}/${Math.floor(((lon + 180) / 360) * n)}/${Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)}`
}

interface FeedInfoBody {
  polling: boolean
  versions: Record<string, number>
  feeds: {
    id: string
    dataset: string
    layers: string[]
    state: string
    lastSuccessAt: string | null
    newestDataAt: string | null
    lastError: string | null
    summary: { kept: number; rejected: number } | null
  }[]
}

describe('live feeds end to end', () => {
  it('GET /api/feeds needs a session and lists every feed by id before any run', async () => {
    expect((await get('/api/feeds', {})).statusCode).toBe(401)
    const res = await get('/api/feeds')
    expect(res.statusCode).toBe(200)
    const b = res.json<FeedInfoBody>()
    expect(b.polling).toBe(true)
    expect(b.feeds.map((f) => f.id)).toEqual(['firms-viirs', 'hms-smoke'])
    expect(b.feeds[0]).toMatchObject({
      dataset: 'thermal_hot_spots',
      layers: ['viirs_thermal_hotspot'],
      state: 'never',
      lastSuccessAt: null,
    })
  })

  it('a poll fetches the feed: records and tiles show the new features, /api/feeds reports it, alerts are re-evaluated', async () => {
    const tile = `/api/tiles/thermal_hot_spots/mvt/${tileOf(-106.75367, 35.0498, 9)}`
    const before = await get(tile)
    const version = (await store.info('thermal_hot_spots')).version
    const listed = (await get('/api/feeds')).json<FeedInfoBody>().versions
    expect(listed).toMatchObject({ thermal_hot_spots: version, distribution_lines: 1 })
    const evaluated = evaluations.length
    const [r] = await app.feeds.pollOnce()
    expect(r?.ok).toBe(true)
    expect(seen.at(-1)?.path).toBe('/firms?key=test-key&bbox=-109.05,31.33,-103,37')
    expect((await store.info('thermal_hot_spots')).version).toBe(version + 1)
    const records = await get('/api/data/thermal_hot_spots/records?limit=1000')
    expect(records.json<{ total: number }>().total).toBe(227)
    const after = await get(tile)
    expect(after.statusCode).toBe(200)
    expect(Number(after.headers['x-tile-features'])).toBeGreaterThan(0)
    expect(after.headers.etag).not.toBe(before.headers.etag)
    const listing = (await get('/api/feeds')).json<FeedInfoBody>()
    // Open tables watch the versions: the feed's dataset moved, the others did not.
    expect(listing.versions).toEqual({ ...listed, thermal_hot_spots: version + 1 })
    const feeds = listing.feeds
    expect(feeds[0]).toMatchObject({
      state: 'ok',
      lastSuccessAt: new Date(NOW).toISOString(),
      lastError: null,
      summary: { kept: 227, rejected: 0 },
    })
    expect(feeds[0]?.newestDataAt).toBe(
      new Date(Math.floor((NOW - 3_600_000) / 60_000) * 60_000).toISOString(),
    )
    expect(evaluations.length).toBeGreaterThan(evaluated)
  })

  it('a new alert appears for a hotspot near a line', async () => {
    const res = await get('/api/alerts')
    const alerts = res.json<{ alerts: { ruleId: string; assets: { id: string; label: string }[] }[] }>()
      .alerts
    const near = alerts.filter((a) => a.ruleId === 'young-hotspot-near-distribution')
    expect(near.length).toBeGreaterThan(0)
    expect(near[0]?.assets[0]?.label).toBe('ABQ-101')
  })

  it('a second poll answered 304 imports nothing', async () => {
    const version = (await store.info('thermal_hot_spots')).version
    const [r] = await app.feeds.pollOnce()
    expect(seen.at(-1)?.ifNoneMatch).toBe('"v1"')
    expect(r).toMatchObject({ ok: true, changed: false, summary: { notModified: true } })
    expect((await store.info('thermal_hot_spots')).version).toBe(version)
  })

  it('a truncated body and an HTML error page leave the old data in place and report the error', async () => {
    const version = (await store.info('thermal_hot_spots')).version
    for (const [m, message] of [
      ['truncated', /truncated|interrupted|closed before/],
      ['html', /not CSV/],
    ] as const) {
      mode = m
      const [r] = await app.feeds.pollOnce()
      expect(r?.ok).toBe(false)
      expect(await store.info('thermal_hot_spots')).toMatchObject({ version, count: 227 })
      const feed = (await get('/api/feeds')).json<FeedInfoBody>().feeds[0]
      expect(feed?.state).toBe('error')
      expect(feed?.lastError).toMatch(message)
      expect(feed?.lastSuccessAt).toBe(new Date(NOW).toISOString())
      expect((await get('/api/data/thermal_hot_spots/records?limit=1')).json<{ total: number }>().total).toBe(
        227,
      )
    }
    mode = 'csv'
  })

  it('a row that cannot be mapped is skipped and reported with its line number in /api/feeds', async () => {
    mode = 'bad-row'
    const [r] = await app.feeds.pollOnce()
    mode = 'csv'
    expect(r?.ok).toBe(true)
    const feed = (await get('/api/feeds')).json<{
      feeds: { state: string; summary: { rejected: number; rejections: { at: string; reason: string }[] } }[]
    }>().feeds[0]
    expect(feed?.state).toBe('ok')
    expect(feed?.summary.rejected).toBe(1)
    expect(feed?.summary.rejections).toEqual([
      { at: 'line 3', reason: 'missing coordinates (longitude, latitude)' },
    ])
  })
})
