import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkOnline } from '../../scripts/config/online'
import { formatProblem } from '../../scripts/config/problem'
import { loadYaml } from '../../scripts/config/yamlSource'
import type { Source } from '../../src/generated/types'
import { startKoop, type TestKoop } from '../support/koop'
import { startMapServer, type TestMapServer } from '../support/mapserver'
import { writePmtiles } from '../support/pmtilesWriter'
import { startRangeServer, type RangeServer } from '../support/rangeServer'

const ASSETS = path.resolve(import.meta.dirname, '../fixtures/features/assets.geojson')

// validate-config --online against the real MapServer and a closed port: unknown layer names, a
// projection the server does not offer and an unreachable host, each at its source's YAML line.

let ms: TestMapServer
let closedPort = 0
let dir = ''
beforeAll(async () => {
  ms = await startMapServer()
  const gone = http.createServer()
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
  closedPort = (gone.address() as AddressInfo).port
  await new Promise<void>((resolve) => gone.close(() => resolve()))
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h3-online-'))
}, 30_000)
afterAll(async () => {
  await ms?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const common = 'attribution: Test\n    minzoom: 0\n    maxzoom: 18\n    allowPrivateNetwork: true'

describe('validate-config --online', () => {
  it('reports unknown WMS layers and unreachable hosts at the source line; a good source passes', async () => {
    const file = path.join(dir, 'layers.yaml')
    fs.writeFileSync(
      file,
      `sources:
  - id: zones_ok
    type: wms
    url: ${ms.wmsUrl}
    layers: zones
    ${common}
  - id: zones_typo
    type: wms
    url: ${ms.wmsUrl}
    layers: zones,zonez
    ${common}
  - id: zones_gone
    type: wms
    url: http://127.0.0.1:${closedPort}/wms
    layers: zones
    ${common}
  - id: basemap
    type: xyz
    url: http://127.0.0.1:${closedPort}/{z}/{x}/{y}.png
    ${common}
`,
    )
    const loaded = loadYaml(file)
    if (!loaded.ok) throw new Error('fixture YAML does not load')
    const sources = (loaded.source.data as { sources: Source[] }).sources
    const lines = (await checkOnline(loaded.source, sources)).map((p) => formatProblem(p, dir))
    expect(lines).toEqual([
      "layers.yaml:13:13  sources[1].layers  zones_typo: WMS layer 'zonez' is not offered by the server (layers: emberline_test, zones)",
      expect.stringMatching(
        /^layers\.yaml:20:10 {2}sources\[2\]\.url {2}zones_gone: unreachable or unreadable: cannot reach upstream 127\.0\.0\.1:\d+/,
      ),
      // An xyz source: its tile at minzoom holding the home point (0/0/0 here) is asked.
      expect.stringMatching(
        /^layers\.yaml:28:10 {2}sources\[3\]\.url {2}basemap: unreachable or unreadable: cannot reach upstream/,
      ),
    ])
  })
})

describe('validate-config --online: the feature, archive and xyz kinds', () => {
  let koop: TestKoop
  let files: RangeServer
  beforeAll(async () => {
    const served = path.join(dir, 'served')
    fs.mkdirSync(path.join(served, 'tiles', '0', '0'), { recursive: true })
    const png = new PNG({ width: 1, height: 1 })
    fs.writeFileSync(path.join(served, 'tiles', '0', '0', '0.png'), PNG.sync.write(png))
    fs.copyFileSync(ASSETS, path.join(served, 'assets.geojson'))
    const tiles = [0, 1, 2].flatMap((z) => [{ z, x: 0, y: 0, data: Buffer.from('not parsed here') }])
    fs.writeFileSync(path.join(served, 'fires.pmtiles'), writePmtiles(tiles, { tileType: 1, gzipTiles: false }))
    fs.writeFileSync(
      path.join(served, 'fires.json'),
      JSON.stringify({ tiles: ['/mvt/{z}/{x}/{y}.pbf'], minzoom: 0, maxzoom: 6, vector_layers: [{ id: 'perimeters' }] }),
    )
    const asc = path.join(served, 'grid.asc')
    const grid = (xll: number, yll: number, size: number, n: number) =>
      `ncols ${n}\nnrows ${n}\nxllcorner ${xll}\nyllcorner ${yll}\ncellsize ${size}\n` +
      Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r + c) % 4).join(' ')).join('\n')
    const gdal = (name: string, srs: string, text: string, of = 'COG') => {
      fs.writeFileSync(asc, text)
      execFileSync('gdal_translate', ['-q', '-of', of, '-a_srs', srs, '-ot', 'Byte', asc, path.join(served, name)])
    }
    gdal('merc.tif', 'EPSG:3857', grid(-13_300_000, 4_400_000, 200, 64))
    gdal('utm.tif', 'EPSG:32611', grid(400_000, 4_000_000, 100, 64))
    gdal('strips.tif', 'EPSG:4326', grid(-120, 36, 0.001, 600), 'GTiff')
    files = await startRangeServer(served)
    koop = await startKoop({ assets: ASSETS })
  }, 60_000)
  afterAll(async () => {
    await koop?.close()
    await files?.stop()
  })

  it('reports each mismatch with the server at its YAML line; sources that match pass', async () => {
    const u = files.url
    const file = path.join(dir, 'kinds.yaml')
    const src = (id: string, type: string, url: string, extra = '') =>
      `  - id: ${id}\n    type: ${type}\n    url: ${url}\n    ${common}\n${extra}`
    const map = (id: string, source: string, paint: string, extra = '') =>
      `  - id: ${id}\n    source: ${source}\n    paint: { type: ${paint} }\n${extra}`
    fs.writeFileSync(
      file,
      'sources:\n' +
        src('fs_ok', 'arcgis-featureserver', koop.layerUrl('assets'), '    outFields: asset_id,status\n') +
        src('fs_bad', 'arcgis-featureserver', koop.layerUrl('assets'), '    outFields: asset_id,statuz\n') +
        src('zones_ogc', 'ogc-features', `${ms.ogcApiUrl}/collections/zones`) +
        src('assets_file', 'geojson', `${u}/assets.geojson`) +
        src('fires_pm', 'pmtiles', `${u}/fires.pmtiles`) +
        src('fires_tj', 'tilejson', `${u}/fires.json`) +
        src('merc_cog', 'cog', `${u}/merc.tif`, '    legend: vegetation\n') +
        src('utm_cog', 'cog', `${u}/utm.tif`, '    legend: vegetation\n') +
        src('strips_cog', 'cog', `${u}/strips.tif`, '    legend: vegetation\n') +
        src('base_ok', 'xyz', `${u}/tiles/{z}/{x}/{y}.png`) +
        src('base_missing', 'xyz', `${u}/nothing/{z}/{x}/{y}.png`) +
        'mapLayers:\n' +
        map('fs_ok_points', 'fs_ok', 'circle', '    popup:\n      fields:\n        - { key: asset_id }\n') +
        map('fs_bad_fill', 'fs_bad', 'fill', '    popup:\n      fields:\n        - { key: nope }\n') +
        map('zones_line', 'zones_ogc', 'line', '    popup:\n      fields:\n        - { key: nam }\n') +
        map('assets_fill', 'assets_file', 'fill') +
        map('fires_raster', 'fires_pm', 'raster') +
        map('fires_lines', 'fires_tj', 'line', '    sourceLayer: perimeterz\n'),
    )
    const loaded = loadYaml(file)
    if (!loaded.ok) throw new Error('fixture YAML does not load')
    const sources = (loaded.source.data as { sources: Source[] }).sources
    const lines = (await checkOnline(loaded.source, sources, {}, [0, 0])).map((p) => formatProblem(p, dir))
    expect(lines).toEqual([
      "kinds.yaml:17:16  sources[1].outFields  fs_bad: field 'statuz' is not in the layer (fields: OBJECTID, asset_id, name, kv, status, owner)",
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}mapLayers\[1\]\.paint\.type {2}fs_bad: a fill paint cannot draw the point geometries of the layer/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}mapLayers\[1\]\.popup\.fields\[0\]\.key {2}fs_bad: property 'nope' is not in the layer/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}mapLayers\[2\]\.popup\.fields\[0\]\.key {2}zones_ogc: property 'nam' is not in the collection \(properties: .*name/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}mapLayers\[3\]\.paint\.type {2}assets_file: a fill paint cannot draw the point\/line geometries of the file/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}mapLayers\[4\]\.paint\.type {2}fires_pm: a raster paint cannot draw the vector \(MVT\) tiles/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}sources\[4\]\.maxzoom {2}fires_pm: maxzoom 18 is above the archive's last zoom 2/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}sources\[5\]\.maxzoom {2}fires_tj: maxzoom 18 is above the TileJSON's last zoom 6/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}mapLayers\[5\]\.sourceLayer {2}fires_tj: vector layer 'perimeterz' is not in the TileJSON \(vector_layers: perimeters\)/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}sources\[7\]\.url {2}utm_cog: the GeoTIFF is in EPSG:32611; .*\(unsupported projection\)/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}sources\[8\]\.url {2}strips_cog: the GeoTIFF is not tiled/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}sources\[8\]\.url {2}strips_cog: the GeoTIFF has no overviews/),
      expect.stringMatching(/^kinds\.yaml:\d+:\d+ {2}sources\[10\]\.url {2}base_missing: tile 0\/0\/0 answered HTTP 404/),
    ])
  })
})
