// Grid feeds (config/feeds.yaml `gridFeeds`): a local HTTP server plays a weather model's site,
// serving GRIB2 files written by GDAL from ONE known field f(lon, lat) = 3·lon + 5·lat + 700
// (+ 10 per hour) in m/s; the app's poller imports them into the real grid store (SQLite, or
// PostgreSQL in the api-pg project) and GET /api/feeds reports their freshness.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feedsConfig, type FeedsConfig, type GridFeedDefinition } from '../../src/shared/config'
import { buildApp } from '../../src/server/app'
import { sampleNearest, type GridRaster } from '../../src/server/grids/gridRaster'
import type { GridRunSummary } from '../../src/server/feeds/runGridFeed'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { AUTH, tempDir, testVerifier } from './testApp'

const run = promisify(execFile)
const HOUR = 3_600_000
/** The model run the files are from (12 UTC), and the poller's clock: 7 h later (19 UTC). */
const REF = Date.parse('2026-11-27T12:00:00Z')
const NOW = REF + 7 * HOUR
const MPH = 1 / 0.44704
const truth = (lon: number, lat: number, hour = 0): number => 3 * lon + 5 * lat + 700 + 10 * hour
/** The source grid: longitude/latitude, 0.1° cells over central New Mexico. */
const G = { x0: -108, y0: 37, cell: 0.1, nx: 50, ny: 50 }
const POINTS: [number, number][] = [
  [-106.9, 34.1],
  [-106.2, 34.6],
  [-105.4, 35.2],
  [-104.8, 34.3],
  [-106.6, 35.7],
  [-105.9, 33.8],
  [-105.1, 35.9],
  [-104.6, 35.0],
  [-106.05, 35.05],
  [-105.55, 34.45],
]

let dir = ''
let dataDir = ''
let server: http.Server
let base = ''
let app: FastifyInstance
let store: AppStore
/** What the site answers: the file per run path, or a failure mode. */
let mode: 'ok' | 'html' | 'truncated' | 'wrong-element' = 'ok'
/** The direction file served: the wind from the west (270°) or, for a second run, from the south (180°). */
let windFrom: 270 | 180 = 270
const seen: { path: string; ifNoneMatch: string | undefined }[] = []
const files: Record<string, Buffer> = {}

/**
 * Writes `hours` GRIB2 messages (valid at REF + 7 h, + 8 h, …) of `value(lon, lat, hour)` with
 * the given GRIB2 parameter (category number), by gdal_translate from raw Float32 behind a VRT.
 */
async function writeGrib(
  name: string,
  param: string,
  hours: number,
  value: (lon: number, lat: number, h: number) => number,
): Promise<Buffer> {
  const data = new Float32Array(G.nx * G.ny * hours)
  for (let h = 0; h < hours; h++)
    for (let j = 0; j < G.ny; j++)
      for (let i = 0; i < G.nx; i++)
        data[h * G.nx * G.ny + j * G.nx + i] = value(G.x0 + (i + 0.5) * G.cell, G.y0 - (j + 0.5) * G.cell, h)
  fs.writeFileSync(path.join(dir, `${name}.bin`), new Uint8Array(data.buffer))
  const bands = Array.from(
    { length: hours },
    (_, h) => `<VRTRasterBand dataType="Float32" band="${h + 1}" subClass="VRTRawRasterBand">
      <SourceFilename relativetoVRT="1">${name}.bin</SourceFilename><ImageOffset>${h * G.nx * G.ny * 4}</ImageOffset>
      <PixelOffset>4</PixelOffset><LineOffset>${G.nx * 4}</LineOffset><ByteOrder>LSB</ByteOrder></VRTRasterBand>`,
  )
  const vrt = path.join(dir, `${name}.vrt`)
  fs.writeFileSync(
    vrt,
    `<VRTDataset rasterXSize="${G.nx}" rasterYSize="${G.ny}"><SRS>EPSG:4326</SRS>
      <GeoTransform>${G.x0}, ${G.cell}, 0, ${G.y0}, 0, ${-G.cell}</GeoTransform>${bands.join('')}</VRTDataset>`,
  )
  const out = path.join(dir, `${name}.grib2`)
  await run('gdal_translate', [
    '-q',
    '-of',
    'GRIB',
    '-co',
    `IDS=CENTER=7(US-NWS) SUBCENTER=0 MASTER_TABLE=2 SIGNF_REF_TIME=1(Start_of_Forecast) REF_TIME=${new Date(REF).toISOString().replace('.000Z', 'Z')} PROD_STATUS=0(Operational) TYPE=1(Forecast)`,
    '-co',
    'DISCIPLINE=0',
    '-co',
    'PDS_PDTN=0',
    '-co',
    'DATA_ENCODING=IEEE_FLOATING_POINT',
    ...Array.from({ length: hours }, (_, h) => [
      '-co',
      `BAND_${h + 1}_PDS_TEMPLATE_ASSEMBLED_VALUES=${param} 2 0 0 0 0 1 ${7 + h} 103 0 10 255 0 0`,
    ]).flat(),
    vrt,
    out,
  ])
  return fs.readFileSync(out)
}

/**
 * The same field written by GDAL as NetCDF (CF time axis: hours 7, 8, 9 since the run, variable
 * `wind_speed`, m/s) or as a one-band GeoTIFF (no times), from raw Float32 behind a VRT.
 */
async function writeOther(name: string, format: 'netCDF' | 'GTiff', hours: number): Promise<Buffer> {
  const data = new Float32Array(G.nx * G.ny * hours)
  for (let h = 0; h < hours; h++)
    for (let j = 0; j < G.ny; j++)
      for (let i = 0; i < G.nx; i++)
        data[h * G.nx * G.ny + j * G.nx + i] = truth(G.x0 + (i + 0.5) * G.cell, G.y0 - (j + 0.5) * G.cell, h)
  fs.writeFileSync(path.join(dir, `${name}.bin`), new Uint8Array(data.buffer))
  const mdi = (m: Record<string, string>) =>
    `<Metadata>${Object.entries(m)
      .map(([k, v]) => `<MDI key="${k}">${v}</MDI>`)
      .join('')}</Metadata>`
  const netcdf = format === 'netCDF'
  const bands = Array.from(
    { length: hours },
    (_, h) => `<VRTRasterBand dataType="Float32" band="${h + 1}" subClass="VRTRawRasterBand">
      ${netcdf ? mdi({ NETCDF_DIM_time: String(7 + h), NETCDF_VARNAME: 'wind_speed', units: 'm/s' }) : ''}
      <SourceFilename relativetoVRT="1">${name}.bin</SourceFilename><ImageOffset>${h * G.nx * G.ny * 4}</ImageOffset>
      <PixelOffset>4</PixelOffset><LineOffset>${G.nx * 4}</LineOffset><ByteOrder>LSB</ByteOrder></VRTRasterBand>`,
  )
  const time = mdi({
    NETCDF_DIM_EXTRA: '{time}',
    NETCDF_DIM_time_DEF: `{${hours},6}`,
    NETCDF_DIM_time_VALUES: `{${Array.from({ length: hours }, (_, h) => 7 + h).join(',')}}`,
    'time#units': 'hours since 2026-11-27 12:00:00',
    'time#standard_name': 'time',
    'time#axis': 'T',
  })
  const vrt = path.join(dir, `${name}.vrt`)
  fs.writeFileSync(
    vrt,
    `<VRTDataset rasterXSize="${G.nx}" rasterYSize="${G.ny}"><SRS>EPSG:4326</SRS>
      <GeoTransform>${G.x0}, ${G.cell}, 0, ${G.y0}, 0, ${-G.cell}</GeoTransform>${netcdf ? time : ''}${bands.join('')}</VRTDataset>`,
  )
  const out = path.join(dir, `${name}.${netcdf ? 'nc' : 'tif'}`)
  await run('gdal_translate', ['-q', '-of', format, vrt, out])
  return fs.readFileSync(out)
}

const feed = (over: Partial<GridFeedDefinition>): GridFeedDefinition => ({
  id: 'model-wind-speed',
  title: 'Model wind',
  format: 'grib2',
  grid: 'sustained_wind_next',
  source: { url: `${base}/model.\${RUN_YYYYMMDD}/t\${RUN_HH}z/wspd.grib2`, element: 'WIND' },
  units: { from: 'm/s', to: 'mph' },
  run: { everyHours: 6, lagMinutes: 0, fallbackRuns: 1 },
  everyMinutes: 60,
  ...over,
})

let feeds: GridFeedDefinition[] = []

beforeAll(async () => {
  dir = tempDir('emberline-grid-feeds-')
  ;[files.wspd, files.wdir, files.rh, files.wdir180] = await Promise.all([
    writeGrib('wspd', '2 1', 3, truth),
    writeGrib('wdir', '2 0', 3, () => 270),
    writeGrib('rh', '1 1', 3, () => 40),
    writeGrib('wdir180', '2 0', 3, () => 180),
  ])
  ;[files['wspd.nc'], files['slope.tif']] = await Promise.all([
    writeOther('wspd', 'netCDF', 3),
    writeOther('slope', 'GTiff', 1),
  ])
  server = http.createServer((req, res) => {
    const url = req.url ?? ''
    seen.push({ path: url, ifNoneMatch: req.headers['if-none-match'] })
    // Only the 12 UTC run of 2026-11-27 is published; the 18 UTC one is not there yet.
    const m = /^\/model\.20261127\/t12z\/(\w+)\.(grib2|nc|tif)$/.exec(url)
    const name =
      m?.[2] !== 'grib2' ? `${m?.[1]}.${m?.[2]}` : m[1] === 'wdir' && windFrom === 180 ? 'wdir180' : m[1]
    const body = m ? (mode === 'wrong-element' ? files.rh : files[name!]) : undefined
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'text/plain' })
      return res.end('not found')
    }
    if (mode === 'html') {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      return res.end('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>')
    }
    if (mode === 'truncated') {
      res.writeHead(200, { 'Content-Length': String(body.length) })
      return res.write(body.subarray(0, 1000), () => setTimeout(() => res.destroy(), 20))
    }
    const etag = `"${name}-1"`
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag })
      return res.end()
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', ETag: etag })
    res.end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  feeds = [
    feed({}),
    feed({
      id: 'model-wind-particles',
      grid: 'wind',
      direction: { url: `${base}/model.\${RUN_YYYYMMDD}/t\${RUN_HH}z/wdir.grib2`, element: 'WDIR' },
    }),
    feed({
      id: 'model-wind-netcdf',
      format: 'netcdf',
      grid: 'wind_gust_next',
      source: { url: `${base}/model.\${RUN_YYYYMMDD}/t\${RUN_HH}z/wspd.nc`, variable: 'wind_speed' },
    }),
    feed({
      id: 'model-slope-geotiff',
      format: 'geotiff',
      grid: 'slope',
      source: { url: `${base}/model.\${RUN_YYYYMMDD}/t\${RUN_HH}z/slope.tif` },
      units: undefined,
    }),
  ]
  const config: FeedsConfig = {
    ...feedsConfig,
    territory: { name: 'test', bbox: [-108, 32, -103, 37] },
    defaults: { ...feedsConfig.defaults, retries: 0, timeoutSeconds: 10 },
    feeds: [],
    gridFeeds: feeds,
  }
  dataDir = tempDir('emberline-grid-feeds-data-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  app = await buildApp({
    dataDir,
    demo: false,
    store,
    verifier: testVerifier,
    feeds: { config, schedule: false, now: () => NOW },
  })
}, 60_000)

afterAll(async () => {
  await app?.close()
  await store?.close()
  server?.close()
  for (const d of [dir, dataDir]) if (d) fs.rmSync(d, { recursive: true, force: true })
})

interface Listed {
  id: string
  kind: string
  grid: string
  dataset: string
  layers: string[]
  state: string
  lastError: string | null
  newestDataAt: string | null
  summary: GridRunSummary | null
}

async function listed(id: string): Promise<Listed> {
  const res = await app.inject({ url: '/api/feeds', headers: AUTH })
  expect(res.statusCode).toBe(200)
  const found = res.json<{ feeds: Listed[] }>().feeds.find((f) => f.id === id)
  expect(found, id).toBeDefined()
  return found!
}

/** Every point within one cell of `expected` (the field's change across one cell, times `scale`). */
function expectWithinOneCell(
  g: GridRaster | undefined,
  expected: (lon: number, lat: number) => number,
  scale = 1,
) {
  expect(g).toBeDefined()
  const tol = (3 * ((g!.east - g!.west) / g!.nx) + 5 * ((g!.north - g!.south) / g!.ny)) * scale
  for (const [lon, lat] of POINTS) {
    const v = sampleNearest(g!, lon, lat)
    expect(Math.abs(v - expected(lon, lat)), `(${lon}, ${lat}): ${v}`).toBeLessThanOrEqual(tol)
  }
}

const validTimes = [7, 8, 9].map((h) => new Date(REF + h * HOUR).toISOString())

describe('grid feeds', () => {
  it('are listed by GET /api/feeds with the sidebar layers drawing their grid, never run yet', async () => {
    const speed = await listed('model-wind-speed')
    expect(speed).toMatchObject({
      kind: 'grid',
      grid: 'sustained_wind_next',
      state: 'never',
      lastError: null,
    })
    expect(speed.layers.length).toBeGreaterThan(0)
    const particles = await listed('model-wind-particles')
    expect(particles).toMatchObject({ kind: 'grid', grid: 'wind', dataset: 'wind_u', state: 'never' })
    expect(particles.layers.length).toBeGreaterThan(0)
  })

  it('tries the newest run (18z, not published: 404), falls back to 12z and imports it in mph with its times', async () => {
    seen.length = 0
    const r = await app.feeds.runGrid(feeds[0]!)
    expect(r.ok, r.ok ? '' : r.error).toBe(true)
    expect(seen.map((s) => s.path)).toEqual([
      '/model.20261127/t18z/wspd.grib2',
      '/model.20261127/t12z/wspd.grib2',
    ])
    if (!r.ok) return
    expect(r.summary.grid).toMatchObject({
      grids: ['sustained_wind_next'],
      run: new Date(REF).toISOString(),
      refTime: new Date(REF).toISOString(),
      validTimes,
      hours: 3,
      format: 'GRIB2',
    })
    expect(r.summary.grid.skipped).toEqual([expect.stringContaining('2026-11-27T18:00:00.000Z: HTTP 404')])
    for (let h = 0; h < 3; h++)
      expectWithinOneCell(
        await store.grids.grid('sustained_wind_next', h),
        (lon, lat) => truth(lon, lat, h) * MPH,
        MPH,
      )
    const info = (await store.grids.list()).find((g) => g.id === 'sustained_wind_next')
    expect(info).toMatchObject({ refTime: new Date(REF).toISOString(), validTimes })
    expect(info?.source).toBe(feeds[0]!.source.url)
    expect(await listed('model-wind-speed')).toMatchObject({
      state: 'ok',
      lastError: null,
      newestDataAt: new Date(REF).toISOString(),
    })
  })

  it('asks again with the ETag: 304 keeps the grid and counts as a fresh check', async () => {
    const before = await store.grids.version('sustained_wind_next')
    seen.length = 0
    const r = await app.feeds.runGrid(feeds[0]!)
    expect(r).toMatchObject({ ok: true, changed: false })
    expect(seen.at(-1)).toEqual({ path: '/model.20261127/t12z/wspd.grib2', ifNoneMatch: '"wspd-1"' })
    expect(await store.grids.version('sustained_wind_next')).toBe(before)
    expect((await listed('model-wind-speed')).state).toBe('ok')
  })

  it.each([
    ['html', /the download is not GRIB2: it starts with '<!DOCTYPE html>/],
    // The connection drops after 1,000 bytes of the declared length.
    ['truncated', /truncated body: 1000 of \d+ bytes|download interrupted/],
    ['wrong-element', /the GRIB2 file has no 'WIND' messages \(elements: RH:10-HTGL\)/],
  ] as const)(
    'a bad download (%s) keeps the previous grid and the feed shows the error',
    async (bad, error) => {
      const before = await store.grids.version('sustained_wind_next')
      mode = bad
      try {
        const r = await app.feeds.runGrid(feeds[0]!, { conditional: false })
        expect(r.ok).toBe(false)
        if (!r.ok) expect(r.error).toMatch(error)
      } finally {
        mode = 'ok'
      }
      expect(await store.grids.version('sustained_wind_next')).toBe(before)
      expectWithinOneCell(
        await store.grids.grid('sustained_wind_next', 0),
        (lon, lat) => truth(lon, lat) * MPH,
        MPH,
      )
      const shown = await listed('model-wind-speed')
      expect(shown.state).toBe('error')
      expect(shown.lastError).toMatch(error)
    },
  )

  it('grid: wind turns speed and direction (from the west) into the particle field (u east, v north, mph)', async () => {
    const r = await app.feeds.runGrid(feeds[1]!)
    expect(r.ok, r.ok ? '' : r.error).toBe(true)
    if (r.ok) expect(r.summary.grid).toMatchObject({ grids: ['wind_u', 'wind_v'], validTimes })
    expectWithinOneCell(await store.grids.grid('wind_u', 1), (lon, lat) => truth(lon, lat, 1) * MPH, MPH)
    const v = await store.grids.grid('wind_v', 1)
    for (const [lon, lat] of POINTS) expect(Math.abs(sampleNearest(v!, lon, lat))).toBeLessThan(1e-3)
    expect((await store.grids.list()).find((g) => g.id === 'wind_v')).toMatchObject({ validTimes })
    expect((await listed('model-wind-particles')).state).toBe('ok')
  })

  it('grid: wind writes u and v in one transaction: no reader sees a new u with an old v', async () => {
    // The previous run stored the wind from the west (u = speed, v = 0); this run's is from the
    // south (u = 0, v = speed). After every write the store is read as a client would: u and v must
    // both be the old run's or both the new run's.
    const [lon, lat] = POINTS[0]!
    const speed = truth(lon, lat) * MPH
    const seenPairs: string[] = []
    const grids = store.grids as unknown as Record<string, unknown>
    const originals = new Map<string, unknown>()
    for (const name of ['replaceGrid', 'replaceGrids']) {
      const original = grids[name]
      if (typeof original !== 'function') continue
      originals.set(name, original)
      grids[name] = async (...args: unknown[]) => {
        const result: unknown = await (original as (...a: unknown[]) => unknown).apply(store.grids, args)
        const u = sampleNearest((await store.grids.grid('wind_u', 0))!, lon, lat)
        const v = sampleNearest((await store.grids.grid('wind_v', 0))!, lon, lat)
        const near = (a: number, b: number) => Math.abs(a - b) < 1e-3 * speed
        seenPairs.push(
          near(u, speed) && near(v, 0) ? 'old' : near(u, 0) && near(v, speed) ? 'new' : `mixed u=${u} v=${v}`,
        )
        return result
      }
    }
    windFrom = 180
    try {
      const r = await app.feeds.runGrid(feeds[1]!, { conditional: false })
      expect(r.ok, r.ok ? '' : r.error).toBe(true)
    } finally {
      windFrom = 270
      for (const [name, original] of originals) grids[name] = original
    }
    expect(seenPairs).toEqual(['new'])
  })

  it('a NetCDF grid feed (CF time axis) from the HTTP server: hours, run time and values in mph', async () => {
    const r = await app.feeds.runGrid(feeds[2]!)
    expect(r.ok, r.ok ? '' : r.error).toBe(true)
    if (r.ok)
      expect(r.summary.grid).toMatchObject({
        grids: ['wind_gust_next'],
        format: 'NetCDF',
        variable: 'wind_speed',
        validTimes,
        // NetCDF gives no run: the run of the URL that answered (12z).
        refTime: new Date(REF).toISOString(),
      })
    for (let h = 0; h < 3; h++)
      expectWithinOneCell(
        await store.grids.grid('wind_gust_next', h),
        (lon, lat) => truth(lon, lat, h) * MPH,
        MPH,
      )
    expect((await listed('model-wind-netcdf')).state).toBe('ok')
  })

  it('a GeoTIFF grid feed from the HTTP server fills a static grid', async () => {
    const r = await app.feeds.runGrid(feeds[3]!)
    expect(r.ok, r.ok ? '' : r.error).toBe(true)
    if (r.ok) expect(r.summary.grid).toMatchObject({ grids: ['slope'], format: 'GeoTIFF', validTimes: [] })
    expectWithinOneCell(await store.grids.grid('slope', 0), (lon, lat) => truth(lon, lat))
    expect((await listed('model-slope-geotiff')).state).toBe('ok')
  })

  it("a file whose unit is not the feed's units.from is refused and the grid kept (GRIB_UNIT m/s, feed says knots)", async () => {
    const before = await store.grids.version('sustained_wind_next')
    const r = await app.feeds.runGrid(feed({ units: { from: 'knots', to: 'mph' } }), { conditional: false })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatch(/the file's values are in m\/s, but the feed converts from knots/)
    expect(await store.grids.version('sustained_wind_next')).toBe(before)
  })
})
