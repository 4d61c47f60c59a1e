import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import geojsonvt from 'geojson-vt'
import Pbf from 'pbf'
import { PNG } from 'pngjs'
import { fromGeojsonVt, type TileLike } from 'vt-pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tileBounds } from '../../src/server/grids/renderTile'
import type { CogSource, PmtilesSource, TilejsonSource } from '../../src/shared/config'
import { parseHexColor } from '../../src/shared/colorRamp'
import { writePmtiles, type ArchiveTile } from '../support/pmtilesWriter'
import { startRangeServer, type RangeServer } from '../support/rangeServer'
import { sourcesApp } from '../support/sourceServers'
import { AUTH, tempDir, type TestApp } from './testApp'

// Real archives written here — a PMTiles archive (vector and raster), a COG by GDAL's
// gdal_translate -of COG, TileJSON and gzip MVT tiles — served by a static server with byte
// ranges on 127.0.0.1, and the real app reading them through the source proxy.

/** A vector tile with one polygon layer `perimeters` over the whole tile, its props naming the tile. */
function mvt(z: number, x: number, y: number): Buffer {
  const [w, s, e, n] = tileBounds(z, x, y)
  const inset = (e - w) / 8
  const ring = [
    [w + inset, s + inset],
    [e - inset, s + inset],
    [e - inset, n - inset],
    [w + inset, n - inset],
    [w + inset, s + inset],
  ]
  const fc = {
    type: 'FeatureCollection' as const,
    features: [
      {
        type: 'Feature' as const,
        properties: { name: `fire ${z}/${x}/${y}`, acres: 100 * z + x },
        geometry: { type: 'Polygon' as const, coordinates: [ring] },
      },
    ],
  }
  const index = geojsonvt(fc, { maxZoom: z, indexMaxZoom: z, extent: 4096, buffer: 64 })
  const tile = index.getTile(z, x, y) as unknown as TileLike
  return Buffer.from(fromGeojsonVt({ perimeters: tile }, { version: 2, extent: 4096 }))
}

function decode(body: Buffer): { layer: string; props: Record<string, unknown> }[] {
  const tile = new VectorTile(new Pbf(body))
  return Object.entries(tile.layers).flatMap(([layer, l]) =>
    Array.from({ length: l.length }, (_, i) => ({ layer, props: l.feature(i).properties })),
  )
}

/** A tiny PNG of one colour (a raster archive's tile). */
function solidPng(rgb: [number, number, number]): Buffer {
  const png = new PNG({ width: 4, height: 4 })
  for (let k = 0; k < 16; k++) png.data.set([...rgb, 255], k * 4)
  return PNG.sync.write(png)
}

// The COG: 1024 × 1024 cells over lon -120..-118, lat 36..38, classes of the `vegetation` legend.
const CLASSES = [11, 21, 22, 31]
const N = 1024
/** A hashed class per cell: data LZW cannot shrink much, so the bytes read show which image was read. */
function cell(col: number, row: number): number {
  let h = Math.imul(col + 1, 0x9e3779b1) ^ Math.imul(row + 7, 0x85ebca6b)
  h ^= h >>> 15
  h = Math.imul(h, 0x2c1b3c6d)
  h ^= h >>> 12
  return CLASSES[(h >>> 0) % 4]!
}
const classColor: Record<number, string> = { 11: '#4a80b4', 21: '#9e9ac8', 22: '#de2d26', 31: '#bdb8a6' }

/** A GeoTIFF written by GDAL (`gdal_translate -of COG`) from an ASCII grid of `cell` classes. */
function writeCog(
  dir: string,
  name: string,
  grid: { n: number; xll: number; yll: number; cellsize: number; srs: string; blankRows: number },
): void {
  const { n, xll, yll, cellsize, srs, blankRows } = grid
  const lines = [`ncols ${n}`, `nrows ${n}`, `xllcorner ${xll}`, `yllcorner ${yll}`, `cellsize ${cellsize}`]
  lines.push('NODATA_value 0')
  for (let row = 0; row < n; row++) {
    const vals: number[] = []
    for (let col = 0; col < n; col++) vals.push(row < blankRows ? 0 : cell(col, row))
    lines.push(vals.join(' '))
  }
  writeFileSync(join(dir, `${name}.asc`), lines.join('\n'))
  execFileSync('gdal_translate', [
    ...['-q', '-of', 'COG', '-a_srs', srs, '-ot', 'Byte'],
    ...['-co', 'BLOCKSIZE=256', '-co', 'OVERVIEW_RESAMPLING=NEAREST'],
    join(dir, `${name}.asc`),
    join(dir, `${name}.tif`),
  ])
}

/** The Web Mercator COG: 512 × 512 cells of 200 m from (x, y) = (-13,300,000, 4,400,000) m. */
const M = { n: 512, xll: -13_300_000, yll: 4_400_000, cellsize: 200 }
const HALF_WORLD = 20037508.342789244
const mercLon = (x: number) => (x / HALF_WORLD) * 180
const mercLat = (y: number) => (Math.atan(Math.sinh((y / HALF_WORLD) * Math.PI)) * 180) / Math.PI

const VECTOR_TILES: ArchiveTile[] = []
for (let z = 0; z <= 3; z++)
  for (let x = 0; x < 2 ** z; x++)
    for (let y = 0; y < 2 ** z; y++) VECTOR_TILES.push({ z, x, y, data: mvt(z, x, y) })
const RED = solidPng([220, 30, 30])
const RASTER_TILES: ArchiveTile[] = [
  { z: 1, x: 0, y: 0, data: RED },
  { z: 1, x: 1, y: 1, data: solidPng([30, 30, 220]) },
]

let t: TestApp
let files: RangeServer
let archiveDir = ''
const base = (over: Record<string, unknown> = {}) => ({
  attribution: 'Test',
  minzoom: 0,
  maxzoom: 14,
  allowPrivateNetwork: true,
  ...over,
})

beforeAll(async () => {
  const served = tempDir('emberline-archives-served-')
  archiveDir = tempDir('emberline-archives-dir-')
  writeFileSync(join(served, 'fires.pmtiles'), writePmtiles(VECTOR_TILES, { tileType: 1, gzipTiles: true }))
  writeFileSync(
    join(archiveDir, 'fires.pmtiles'),
    writePmtiles(VECTOR_TILES, { tileType: 1, gzipTiles: false }),
  )
  mkdirSync(join(archiveDir, 'sub'))
  writeFileSync(
    join(archiveDir, 'sub', 'shade.pmtiles'),
    writePmtiles(RASTER_TILES, { tileType: 2, gzipTiles: false }),
  )
  const outside = tempDir('emberline-archives-outside-')
  writeFileSync(
    join(outside, 'secret.pmtiles'),
    writePmtiles(RASTER_TILES, { tileType: 2, gzipTiles: false }),
  )
  symlinkSync(join(outside, 'secret.pmtiles'), join(archiveDir, 'link.pmtiles'))
  writeCog(served, 'veg', { n: N, xll: -120, yll: 36, cellsize: 2 / N, srs: 'EPSG:4326', blankRows: 8 })
  writeCog(served, 'veg3857', { ...M, srs: 'EPSG:3857', blankRows: 0 })
  writeCog(served, 'utm', {
    n: 64,
    xll: 400_000,
    yll: 4_000_000,
    cellsize: 100,
    srs: 'EPSG:32611',
    blankRows: 0,
  })
  mkdirSync(join(served, 'mvt', '2', '1'), { recursive: true })
  writeFileSync(join(served, 'mvt', '2', '1', '1.pbf'), gzipSync(mvt(2, 1, 1)))
  writeFileSync(join(served, 'mvt', '2', '1', '2.pbf'), mvt(2, 1, 2))
  writeFileSync(
    join(served, 'fires.json'),
    JSON.stringify({
      tilejson: '3.0.0',
      tiles: ['mvt/{z}/{x}/{y}.pbf'],
      minzoom: 0,
      maxzoom: 6,
      vector_layers: [{ id: 'perimeters', fields: { name: 'String' } }],
    }),
  )
  writeFileSync(
    join(served, 'elsewhere.json'),
    JSON.stringify({ tiles: ['https://cdn.example.net/{z}/{x}/{y}.pbf'] }),
  )
  files = await startRangeServer(served)
  const u = files.url
  const pm = (id: string, over: Partial<PmtilesSource>): PmtilesSource =>
    ({ id, type: 'pmtiles', ...base(), ...over }) as PmtilesSource
  const archiveSources = [
    pm('fires_url', { url: `${u}/fires.pmtiles`, headers: { 'X-Key': 'archive-secret-99' } }),
    pm('fires_env', { url: '${H5_ARCHIVE_URL}' }),
    pm('fires_file', { file: 'fires.pmtiles' }),
    pm('shade_file', { file: 'sub/shade.pmtiles' }),
    pm('escape', { file: '../outside.pmtiles' }),
    pm('link', { file: 'link.pmtiles' }),
    pm('absent', { file: 'absent.pmtiles' }),
    pm('loopback', { url: `${u}/fires.pmtiles`, allowPrivateNetwork: undefined }),
    pm('not_archive', { url: `${u}/fires.json` }),
    pm('gone', { url: `http://127.0.0.1:1/fires.pmtiles` }),
    { id: 'veg_cog', type: 'cog', url: `${u}/veg.tif`, legend: 'vegetation', ...base() } as CogSource,
    { id: 'veg_3857', type: 'cog', url: `${u}/veg3857.tif`, legend: 'vegetation', ...base() } as CogSource,
    { id: 'utm_cog', type: 'cog', url: `${u}/utm.tif`, legend: 'vegetation', ...base() } as CogSource,
    { id: 'fires_tj', type: 'tilejson', url: `${u}/fires.json`, ...base() } as TilejsonSource,
    { id: 'fires_direct', type: 'tilejson', url: `${u}/mvt/{z}/{x}/{y}.pbf`, ...base() } as TilejsonSource,
    { id: 'tj_elsewhere', type: 'tilejson', url: `${u}/elsewhere.json`, ...base() } as TilejsonSource,
  ]
  t = await sourcesApp({
    sources: [],
    featureSources: [],
    archiveSources,
    archiveDir,
    env: { H5_ARCHIVE_URL: `${u}/fires.pmtiles`, EMBERLINE_SOURCE_PROBE_MS: '0' },
  })
}, 60_000)

afterAll(async () => {
  await t?.close()
  await files?.stop()
})

const get = (url: string, headers: Record<string, string> = AUTH) => t.app.inject({ url, headers })
const status = async (id: string) =>
  ((await get('/api/sources/status')).json().sources as { id: string }[]).find((s) => s.id === id) as Record<
    string,
    unknown
  >

describe('pmtiles', () => {
  it('reads every tile back, by range requests through the proxy, equal to what was written (gzip tiles decompressed)', async () => {
    files.seen.length = 0
    for (const tile of VECTOR_TILES) {
      const res = await get(`/api/sources/fires_url/tiles/${tile.z}/${tile.x}/${tile.y}`)
      expect(res.statusCode, `${tile.z}/${tile.x}/${tile.y}`).toBe(200)
      expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile')
      expect(res.rawPayload.equals(tile.data), `${tile.z}/${tile.x}/${tile.y}`).toBe(true)
    }
    expect(decode(Buffer.from((await get('/api/sources/fires_url/tiles/3/2/5')).rawPayload))).toEqual([
      { layer: 'perimeters', props: { name: 'fire 3/2/5', acres: 302 } },
    ])
    expect(files.seen.length).toBeGreaterThan(0)
    expect(
      files.seen.every((s) => s.path === '/fires.pmtiles' && /^bytes=\d+-\d+$/.test(s.range ?? '')),
    ).toBe(true)
  })

  it('a URL that is one ${NAME} placeholder is read from the environment', async () => {
    const res = await get('/api/sources/fires_env/tiles/1/1/0')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(mvt(1, 1, 0))).toBe(true)
  })

  it('reads a file below the archive directory (vector and raster), 204 where the archive has no tile, 404 outside the zooms', async () => {
    for (const tile of VECTOR_TILES.slice(0, 6)) {
      const res = await get(`/api/sources/fires_file/tiles/${tile.z}/${tile.x}/${tile.y}`)
      expect(res.rawPayload.equals(tile.data)).toBe(true)
    }
    const red = await get('/api/sources/shade_file/tiles/1/0/0')
    expect(red.headers['content-type']).toBe('image/png')
    expect(red.rawPayload.equals(RED)).toBe(true)
    expect((await get('/api/sources/shade_file/tiles/1/1/0')).statusCode).toBe(204)
    expect((await get('/api/sources/fires_file/tiles/9/1/1')).statusCode).toBe(204)
    const outside = await get('/api/sources/fires_file/tiles/15/1/1')
    expect(outside.statusCode).toBe(404)
    expect(outside.json().error).toBe('not_found')
  })

  it('never reads outside the archive directory: .. and a symbolic link out are 502 JSON; a missing file too', async () => {
    for (const id of ['escape', 'link']) {
      const res = await get(`/api/sources/${id}/tiles/1/0/0`)
      expect(res.statusCode, id).toBe(502)
      expect(res.json(), id).toEqual({
        error: 'bad_gateway',
        source: id,
        message: 'the archive file must be inside the archive directory',
      })
    }
    const absent = await get('/api/sources/absent/tiles/1/0/0')
    expect(absent.statusCode).toBe(502)
    expect(absent.json().message).toBe('the archive file absent.pmtiles does not exist')
  })

  it('keeps the allow-list: a loopback upstream without allowPrivateNetwork is refused before any request', async () => {
    files.seen.length = 0
    const res = await get('/api/sources/loopback/tiles/1/0/0')
    expect(res.statusCode).toBe(502)
    expect(res.json().message).toMatch(/127\.0\.0\.1 is a loopback address/)
    expect(files.seen).toEqual([])
  })

  it('a file that is not an archive, or an upstream that does not answer, is 502 JSON, never 500', async () => {
    const bad = await get('/api/sources/not_archive/tiles/1/0/0')
    expect(bad.statusCode).toBe(502)
    expect(bad.json()).toMatchObject({ error: 'bad_gateway', source: 'not_archive' })
    const gone = await get('/api/sources/gone/tiles/1/0/0')
    expect(gone.statusCode).toBe(502)
    expect(gone.json().message).toMatch(/cannot reach upstream 127\.0\.0\.1:1/)
  })
})

describe('cog', () => {
  const lonOf = (col: number) => -120 + ((col + 0.5) * 2) / N
  const latOf = (row: number) => 38 - ((row + 0.5) * 2) / N

  it('answers the pixel value at a point with its class label, null on no-data and outside', async () => {
    for (const [col, row] of [
      [0, 8],
      [500, 700],
      [1023, 1023],
      [77, 300],
    ] as const) {
      const res = await get(`/api/sources/veg_cog/info?lon=${lonOf(col)}&lat=${latOf(row)}`)
      expect(res.statusCode).toBe(200)
      const body = res.json()
      const v = cell(col, row)
      expect(body.value, `${col},${row}`).toBe(v)
      expect(body.features).toEqual([{ layer: 'band 1', attributes: { value: v, class: body.label } }])
      expect(body.label).toBe({ 11: 'Water', 21: 'Developed', 22: 'Urban', 31: 'Barren' }[v])
    }
    expect((await get(`/api/sources/veg_cog/info?lon=${lonOf(5)}&lat=${latOf(3)}`)).json()).toMatchObject({
      value: null,
      features: [],
    })
    expect((await get('/api/sources/veg_cog/info?lon=10&lat=10')).json().value).toBe(null)
    const missing = await get('/api/sources/veg_cog/info?lon=-119')
    expect(missing.statusCode).toBe(400)
    expect(missing.json().parameter).toBe('lat')
  })

  it('colours a tile with the legend (each pixel the class colour of its cell) from the full image at a high zoom', async () => {
    // z 12 tile inside the raster: ~0.000343°/px, finer than the full image's 0.00195°.
    const z = 12
    const x = Math.floor(((-119.3 + 180) / 360) * 2 ** z)
    const latRad = (37.2 * Math.PI) / 180
    const y = Math.floor(((1 - Math.log(Math.tan(latRad) + 1 / Math.cos(latRad)) / Math.PI) / 2) * 2 ** z)
    const res = await get(`/api/sources/veg_cog/tiles/${z}/${x}/${y}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    const png = PNG.sync.read(Buffer.from(res.rawPayload))
    const [w, s, e, n] = tileBounds(z, x, y)
    for (const [i, j] of [
      [10, 10],
      [128, 128],
      [250, 40],
    ] as const) {
      const lon = w + ((i + 0.5) / 256) * (e - w)
      // Mercator row → latitude
      const my = Math.PI * (1 - (2 * (y * 256 + j + 0.5)) / (256 * 2 ** z))
      const lat = (Math.atan(Math.sinh(my)) * 180) / Math.PI
      expect(lat).toBeLessThan(n)
      expect(lat).toBeGreaterThan(s)
      const col = Math.floor(((lon + 120) / 2) * N)
      const row = Math.floor(((38 - lat) / 2) * N)
      const want = parseHexColor(classColor[cell(col, row)]!)
      expect([...png.data.subarray((j * 256 + i) * 4, (j * 256 + i) * 4 + 4)], `${i},${j}`).toEqual([...want])
    }
  })

  it('reads a low-zoom tile from an overview: far fewer bytes than the full image', async () => {
    files.seen.length = 0
    const res = await get('/api/sources/veg_cog/tiles/6/10/24')
    expect(res.statusCode).toBe(200)
    const png = PNG.sync.read(Buffer.from(res.rawPayload))
    let coloured = 0
    for (let k = 3; k < png.data.length; k += 4) if (png.data[k]! > 0) coloured++
    expect(coloured).toBeGreaterThan(100)
    const bytes = files.seen
      .map((s) => /^bytes=(\d+)-(\d+)$/.exec(s.range ?? ''))
      .reduce((sum, m) => sum + (m ? Number(m[2]) - Number(m[1]) + 1 : 0), 0)
    // The file is ~410 kB, nearly all of it the 1024 × 1024 image; the 256 × 256 overview is ~1/21 of it.
    expect(bytes).toBeLessThan(100_000)
    expect((await get('/api/sources/veg_cog/tiles/6/0/0')).statusCode).toBe(204)
  })
})

describe('cog in Web Mercator (EPSG:3857, written by GDAL)', () => {
  /** The centre of cell (col, row) as longitude/latitude. */
  const centre = (col: number, row: number) => [
    mercLon(M.xll + (col + 0.5) * M.cellsize),
    mercLat(M.yll + (M.n - row - 0.5) * M.cellsize),
  ]

  it('answers the pixel value of the cell holding a point', async () => {
    for (const [col, row] of [
      [0, 0],
      [300, 200],
      [511, 511],
      [17, 480],
    ] as const) {
      const [lon, lat] = centre(col, row)
      const res = await get(`/api/sources/veg_3857/info?lon=${lon}&lat=${lat}`)
      expect(res.statusCode).toBe(200)
      expect(res.json().value, `${col},${row}`).toBe(cell(col, row))
    }
    expect((await get('/api/sources/veg_3857/info?lon=-100&lat=36.9')).json().value).toBe(null)
  })

  it('colours each tile pixel with the class of the cell under its centre (the tile is read in metres)', async () => {
    // z 13: 19.1 m per pixel, finer than the 200 m cells; the tile holding cell (300, 200).
    const z = 13
    const span = (2 * HALF_WORLD) / 2 ** z
    const [cx, cy] = [M.xll + 300.5 * M.cellsize, M.yll + (M.n - 200.5) * M.cellsize]
    const x = Math.floor((cx + HALF_WORLD) / span)
    const y = Math.floor((HALF_WORLD - cy) / span)
    const res = await get(`/api/sources/veg_3857/tiles/${z}/${x}/${y}`)
    expect(res.statusCode).toBe(200)
    const png = PNG.sync.read(Buffer.from(res.rawPayload))
    let checked = 0
    for (let j = 3; j < 256; j += 36)
      for (let i = 5; i < 256; i += 36) {
        const mx = -HALF_WORLD + x * span + ((i + 0.5) / 256) * span
        const my = HALF_WORLD - y * span - ((j + 0.5) / 256) * span
        const col = Math.floor((mx - M.xll) / M.cellsize)
        const row = Math.floor((M.yll + M.n * M.cellsize - my) / M.cellsize)
        const want = parseHexColor(classColor[cell(col, row)]!)
        const k = (j * 256 + i) * 4
        expect([...png.data.subarray(k, k + 4)], `${i},${j}`).toEqual([...want])
        checked++
      }
    expect(checked).toBe(56)
    // A low zoom reads the 256 × 256 overview; a tile beside the raster is empty.
    files.seen.length = 0
    const low = await get(`/api/sources/veg_3857/tiles/8/${x >> 5}/${y >> 5}`)
    expect(low.statusCode).toBe(200)
    expect(files.seen.some((r) => r.path === '/veg3857.tif')).toBe(true)
    expect((await get(`/api/sources/veg_3857/tiles/8/${(x >> 5) + 3}/${y >> 5}`)).statusCode).toBe(204)
  })

  it('a COG in another projection (UTM) is a 502 JSON naming it and what is supported', async () => {
    for (const url of ['/api/sources/utm_cog/tiles/8/40/99', '/api/sources/utm_cog/info?lon=-118&lat=36.5']) {
      const res = await get(url)
      expect(res.statusCode).toBe(502)
      expect(res.json()).toMatchObject({ error: 'bad_gateway', source: 'utm_cog' })
      expect(res.json().message).toMatch(/EPSG:32611.*only .*EPSG:4326.*EPSG:3857/)
    }
  })
})

describe('tilejson / remote MVT', () => {
  it('reads the TileJSON (relative tiles template) and passes the tile on, gzip or not, as an MVT', async () => {
    for (const [id, y] of [
      ['fires_tj', 1],
      ['fires_tj', 2],
      ['fires_direct', 1],
      ['fires_direct', 2],
    ] as const) {
      const res = await get(`/api/sources/${id}/tiles/2/1/${y}`)
      expect(res.statusCode, `${id} ${y}`).toBe(200)
      expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile')
      expect(res.rawPayload.equals(mvt(2, 1, y)), `${id} ${y}`).toBe(true)
    }
    expect((await get('/api/sources/fires_tj/tiles/2/0/0')).statusCode).toBe(204)
    const tj = (await get('/api/sources/fires_tj/tilejson')).json()
    expect(tj).toMatchObject({
      tiles: ['/api/sources/fires_tj/tiles/{z}/{x}/{y}'],
      vector_layers: [{ id: 'perimeters', fields: { name: 'String' } }],
    })
  })

  it('tiles on a host the YAML does not name are refused (502 JSON)', async () => {
    const res = await get('/api/sources/tj_elsewhere/tiles/2/1/1')
    expect(res.statusCode).toBe(502)
    expect(res.json().message).toBe('host cdn.example.net is not allowed for this source')
  })
})

describe('health: /api/sources/status', () => {
  it('needs a session', async () => {
    expect((await get('/api/sources/status', {})).statusCode).toBe(401)
  })

  it('lists kind and host (never credentials or paths), unavailable with the reason when the upstream fails, ok again when it answers; cached tiles keep being served', async () => {
    expect(await status('fires_url')).toMatchObject({
      kind: 'pmtiles',
      host: `127.0.0.1:${files.port}`,
      state: 'ok',
    })
    expect(JSON.stringify((await get('/api/sources/status')).json())).not.toMatch(
      /archive-secret-99|fires\.pmtiles/,
    )
    expect(await status('fires_file')).toMatchObject({ kind: 'pmtiles', host: null, state: 'ok' })
    expect(await status('escape')).toMatchObject({
      state: 'unavailable',
      message: 'the archive file must be inside the archive directory',
    })
    const before = await get('/api/sources/fires_url/tiles/2/1/1')
    expect(before.statusCode).toBe(200)
    await files.stop()
    try {
      const cached = await get('/api/sources/fires_url/tiles/2/1/1')
      expect(cached.statusCode).toBe(200)
      expect(cached.rawPayload.equals(before.rawPayload)).toBe(true)
      // Never read through fires_env: not cached, so the failure is answered.
      const fresh = await get('/api/sources/fires_env/tiles/3/7/7')
      expect(fresh.statusCode).toBe(502)
      expect(fresh.json()).toMatchObject({ error: 'bad_gateway', source: 'fires_env' })
      expect(cached.headers['cache-control']).toBe('private, max-age=60')
      const down = await status('fires_url')
      expect(down).toMatchObject({ state: 'unavailable' })
      expect(down.message).toMatch(/cannot reach upstream|does not answer/)
      expect(down.lastFailure).toBeTypeOf('string')
      // Not asked by any tile since: the status route's probe finds it down.
      expect(await status('veg_cog')).toMatchObject({ state: 'unavailable' })
    } finally {
      await files.start()
    }
    expect((await get('/api/sources/fires_env/tiles/3/7/7')).statusCode).toBe(200)
    expect((await get('/api/sources/fires_url/tiles/2/1/1')).statusCode).toBe(200)
    expect(await status('fires_url')).toMatchObject({ state: 'ok' })
    expect((await status('fires_url')).message).toBeUndefined()
    expect(await status('veg_cog')).toMatchObject({ state: 'ok' })
  })
})
