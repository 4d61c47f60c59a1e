import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import geojsonvt from 'geojson-vt'
import { PNG } from 'pngjs'
import { fromGeojsonVt, type TileLike } from 'vt-pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig, layersConfig } from '../../src/shared/config'
import { startKoop, type TestKoop } from '../support/koop'
import { startMapServer, type TestMapServer } from '../support/mapserver'
import { writePmtiles, type ArchiveTile } from '../support/pmtilesWriter'
import { startRangeServer, type RangeServer } from '../support/rangeServer'
import {
  eventually,
  mapSelectors,
  paintedPixels,
  paintedPoint,
  setLayerVisible,
  waitForMap,
} from './map.driver'
import { launchBrowser, newPage, signIn, startServer, type TestServer } from './support'
import { tableSelectors } from './tables.driver'

// Issue #30's browser tests: the catalogue's utility_gis_* layers, switched on by their
// EMBERLINE_UTILITY_* variables, drawn from real servers started here — MapServer (WMS and OGC
// API – Features), Koop (ArcGIS FeatureServer), a plain static server answering as a tile server
// (XYZ), a file host (GeoJSON), a basemap vendor's WMTS, an ArcGIS MapServer's cached tiles and a
// TileJSON with its vector tiles, a PMTiles archive and a COG written by GDAL behind a byte-range
// server — through our proxy, in pixels.

const [LON, LAT] = appConfig.map.demo.center as [number, number]
const ZOOM = appConfig.map.demo.zoom

function solidPng(rgb: [number, number, number]): Buffer {
  const png = new PNG({ width: 256, height: 256 })
  for (let k = 0; k < 256 * 256; k++) png.data.set([...rgb, 255], k * 4)
  return PNG.sync.write(png)
}

function tileOf(lon: number, lat: number, z: number): { x: number; y: number } {
  const n = 2 ** z
  const r = (lat * Math.PI) / 180
  return {
    x: Math.floor(((lon + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n),
  }
}

const box = (d: number) => [
  [LON - d, LAT - d],
  [LON + d, LAT - d],
  [LON + d, LAT + d],
  [LON - d, LAT + d],
  [LON - d, LAT - d],
]

/** 150 poles on a grid around the demo view: two pages of the table (100 a page). */
const POLES = {
  type: 'FeatureCollection',
  features: Array.from({ length: 150 }, (_, i) => ({
    type: 'Feature',
    properties: {
      asset_id: `P-${String(i + 1).padStart(3, '0')}`,
      name: `Pole ${i + 1}`,
      kv: i % 3 === 0 ? 69 : 12,
      status: i % 10 === 0 ? 'closed' : 'open',
      owner: 'Emberline Test Utility',
    },
    geometry: {
      type: 'Point',
      coordinates: [LON - 0.06 + (i % 15) * 0.008, LAT - 0.04 + Math.floor(i / 15) * 0.008],
    },
  })),
}

let dir = ''
let plain: http.Server
let archives: RangeServer
let wms: TestMapServer
let koop: TestKoop
let server: TestServer
let browser: Browser
let page: Page

function writeFixtures(): void {
  writeFileSync(
    join(dir, 'zones.geojson'),
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { zone_id: 'Z9', name: 'Jemez Patrol Zone', risk: 'high', score: 91 },
          geometry: { type: 'Polygon', coordinates: [box(0.05)] },
        },
      ],
    }),
  )
  writeFileSync(join(dir, 'poles.geojson'), JSON.stringify(POLES))
  // The hillshade archive: grey tiles at the demo zoom and one deeper, around the view.
  const grey = solidPng([120, 120, 120])
  const tiles: ArchiveTile[] = []
  for (const z of [ZOOM, ZOOM + 1]) {
    const c = tileOf(LON, LAT, z)
    for (let dx = -3; dx <= 3; dx++)
      for (let dy = -3; dy <= 3; dy++) tiles.push({ z, x: c.x + dx, y: c.y + dy, data: grey })
  }
  writeFileSync(join(dir, 'hillshade.pmtiles'), writePmtiles(tiles, { tileType: 2, gzipTiles: false }))
  // The COG: class 22 (Urban, red in the vegetation legend) over the view, by GDAL.
  const n = 64
  const rows = Array.from({ length: n }, () => Array.from({ length: n }, () => 22).join(' '))
  writeFileSync(
    join(dir, 'veg.asc'),
    [
      `ncols ${n}`,
      `nrows ${n}`,
      `xllcorner ${LON - 0.2}`,
      `yllcorner ${LAT - 0.2}`,
      `cellsize ${0.4 / n}`,
      'NODATA_value 0',
      ...rows,
    ].join('\n'),
  )
  execFileSync('gdal_translate', [
    '-q',
    '-of',
    'COG',
    '-a_srs',
    'EPSG:4326',
    '-ot',
    'Byte',
    join(dir, 'veg.asc'),
    join(dir, 'veg.tif'),
  ])
}

/** GoogleMapsCompatible (OGC WMTS Annex E.4): zoom z's scale denominator and matrix size. */
const WMTS_Z0_SCALE = 559082264.0287178
const HALF_WORLD = 20037508.3427892

/** A basemap vendor's WMTS GetCapabilities (1.0.0): one layer in one EPSG:3857 set, RESTful tiles. */
function wmtsCapabilities(base: string): string {
  const matrices = Array.from(
    { length: 19 },
    (_, z) => `
      <TileMatrix>
        <ows:Identifier>${z}</ows:Identifier>
        <ScaleDenominator>${WMTS_Z0_SCALE / 2 ** z}</ScaleDenominator>
        <TopLeftCorner>${-HALF_WORLD} ${HALF_WORLD}</TopLeftCorner>
        <TileWidth>256</TileWidth>
        <TileHeight>256</TileHeight>
        <MatrixWidth>${2 ** z}</MatrixWidth>
        <MatrixHeight>${2 ** z}</MatrixHeight>
      </TileMatrix>`,
  ).join('')
  return `<?xml version="1.0" encoding="UTF-8"?>
<Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1"
    xmlns:xlink="http://www.w3.org/1999/xlink" version="1.0.0">
  <ows:ServiceIdentification>
    <ows:Title>Utility basemap</ows:Title>
    <ows:ServiceType>OGC WMTS</ows:ServiceType>
    <ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion>
  </ows:ServiceIdentification>
  <Contents>
    <Layer>
      <ows:Title>Basemap</ows:Title>
      <ows:Identifier>basemap</ows:Identifier>
      <Style isDefault="true"><ows:Identifier>default</ows:Identifier></Style>
      <Format>image/png</Format>
      <TileMatrixSetLink><TileMatrixSet>GoogleMapsCompatible</TileMatrixSet></TileMatrixSetLink>
      <ResourceURL format="image/png" resourceType="tile"
        template="${base}/wmts/1.0.0/{Layer}/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png"/>
    </Layer>
    <TileMatrixSet>
      <ows:Identifier>GoogleMapsCompatible</ows:Identifier>
      <ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>
      <WellKnownScaleSet>urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible</WellKnownScaleSet>${matrices}
    </TileMatrixSet>
  </Contents>
  <ServiceMetadataURL xlink:href="${base}/wmts/1.0.0/WMTSCapabilities.xml"/>
</Capabilities>
`
}

/** An ArcGIS Server MapServer's service JSON (…/MapServer?f=json) with a Web Mercator tile cache. */
function arcgisServiceJson(): object {
  const sr = { wkid: 102100, latestWkid: 3857 }
  return {
    currentVersion: 11.1,
    serviceDescription: 'Electric network',
    mapName: 'Electric',
    layers: [
      { id: 0, name: 'Substations', parentLayerId: -1, defaultVisibility: true, subLayerIds: null },
      { id: 1, name: 'Primary lines', parentLayerId: -1, defaultVisibility: true, subLayerIds: null },
    ],
    spatialReference: sr,
    singleFusedMapCache: true,
    tileInfo: {
      rows: 256,
      cols: 256,
      dpi: 96,
      format: 'PNG32',
      compressionQuality: 0,
      origin: { x: -20037508.342787, y: 20037508.342787 },
      spatialReference: sr,
      lods: Array.from({ length: 20 }, (_, level) => ({
        level,
        resolution: 156543.03392800014 / 2 ** level,
        scale: 591657527.591555 / 2 ** level,
      })),
    },
    fullExtent: { xmin: -12000000, ymin: 3700000, xmax: -11500000, ymax: 4400000, spatialReference: sr },
    units: 'esriMeters',
    supportedImageFormatTypes: 'PNG32,PNG24,PNG,JPG,DIB,TIFF,EMF,PS,PDF,GIF,SVG,SVGZ,BMP',
    capabilities: 'Map,Query,Data',
  }
}

/** Circuits as the utility's vector tile server cuts them (source layer `circuits`). */
const CIRCUITS = {
  type: 'FeatureCollection' as const,
  features: [0, 1, 2].map((k) => ({
    type: 'Feature' as const,
    properties: { circuit: `C-${k + 1}`, kv: 12.47 },
    geometry: {
      type: 'LineString' as const,
      coordinates: [
        [LON - 0.1, LAT - 0.03 + k * 0.03],
        [LON + 0.1, LAT - 0.03 + k * 0.03],
      ],
    },
  })),
}

/**
 * The plain static server: a tile server (`/xyz/…`: blue PNG), a file host (`/patrols.geojson`),
 * a basemap vendor's WMTS (`/wmts/1.0.0/…`: capabilities, green PNG tiles of its one layer and
 * set), an ArcGIS MapServer's cache (`/arcgis/rest/services/Electric/MapServer`: service JSON,
 * orange `tile/{level}/{row}/{col}`) and a TileJSON 3 document with its MVT tiles (`/tiles/…`).
 */
async function startPlain(): Promise<string> {
  const blue = solidPng([30, 60, 220])
  const green = solidPng([40, 160, 60])
  const orange = solidPng([240, 140, 0])
  const circuits = geojsonvt(CIRCUITS, { maxZoom: 16, indexMaxZoom: 5, extent: 4096, buffer: 64 })
  const service = '/arcgis/rest/services/Electric/MapServer'
  let base = ''
  const patrols = JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { route: 'Route 7', crew: 'North crew' },
        geometry: {
          type: 'LineString',
          coordinates: [
            [LON - 0.08, LAT - 0.02],
            [LON + 0.08, LAT + 0.02],
          ],
        },
      },
    ],
  })
  plain = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base)
    const path = url.pathname
    let m: RegExpMatchArray | null
    if (path === '/patrols.geojson')
      res.writeHead(200, { 'content-type': 'application/geo+json' }).end(patrols)
    else if (path.startsWith('/xyz/')) res.writeHead(200, { 'content-type': 'image/png' }).end(blue)
    else if (path === '/wmts/1.0.0/WMTSCapabilities.xml')
      res.writeHead(200, { 'content-type': 'application/xml' }).end(wmtsCapabilities(base))
    else if (/^\/wmts\/1\.0\.0\/basemap\/default\/GoogleMapsCompatible\/\d+\/\d+\/\d+\.png$/.test(path))
      res.writeHead(200, { 'content-type': 'image/png' }).end(green)
    else if (path === service && url.searchParams.get('f') === 'json')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(arcgisServiceJson()))
    else if (path.startsWith(`${service}/tile/`) && /\/tile\/\d+\/\d+\/\d+$/.test(path))
      res.writeHead(200, { 'content-type': 'image/png' }).end(orange)
    else if (path === '/tiles/circuits.json')
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          tilejson: '3.0.0',
          name: 'Circuits',
          tiles: [`${base}/tiles/circuits/{z}/{x}/{y}.pbf`],
          minzoom: 0,
          maxzoom: 16,
          vector_layers: [{ id: 'circuits', fields: { circuit: 'String', kv: 'Number' } }],
        }),
      )
    else if ((m = /^\/tiles\/circuits\/(\d+)\/(\d+)\/(\d+)\.pbf$/.exec(path))) {
      const tile = circuits.getTile(Number(m[1]), Number(m[2]), Number(m[3]))
      if (!tile || tile.features.length === 0) res.writeHead(404).end()
      else
        res
          .writeHead(200, { 'content-type': 'application/vnd.mapbox-vector-tile' })
          .end(fromGeojsonVt({ circuits: tile as TileLike }, { version: 2, extent: 4096 }))
    } else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
  return base
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'emberline-e2e-external-'))
  writeFixtures()
  const plainUrl = await startPlain()
  ;[archives, wms, koop, browser] = await Promise.all([
    startRangeServer(dir),
    startMapServer({ geojson: join(dir, 'zones.geojson'), layer: 'patrol_zones', title: 'Patrol zones' }),
    startKoop({ poles: join(dir, 'poles.geojson') }),
    launchBrowser(),
  ])
  server = await startServer({
    env: {
      EMBERLINE_UTILITY_WMS_URL: wms.wmsUrl,
      EMBERLINE_UTILITY_POLES_URL: koop.layerUrl('poles'),
      EMBERLINE_UTILITY_IMAGERY_URL: `${plainUrl}/xyz/{z}/{x}/{y}.png`,
      EMBERLINE_UTILITY_PATROLS_URL: `${plainUrl}/patrols.geojson`,
      EMBERLINE_UTILITY_HILLSHADE_URL: `${archives.url}/hillshade.pmtiles`,
      EMBERLINE_UTILITY_VEGETATION_COG_URL: `${archives.url}/veg.tif`,
      EMBERLINE_UTILITY_WMTS_URL: `${plainUrl}/wmts/1.0.0/WMTSCapabilities.xml`,
      EMBERLINE_UTILITY_MAPSERVER_URL: `${plainUrl}/arcgis/rest/services/Electric/MapServer`,
      EMBERLINE_UTILITY_OGC_URL: `${wms.ogcApiUrl}/collections/patrol_zones`,
      EMBERLINE_UTILITY_TILEJSON_URL: `${plainUrl}/tiles/circuits.json`,
      EMBERLINE_SOURCE_PROBE_MS: '300',
      // The demo's view and clock, without seeding its data: these layers need none (faster start).
      SEED: 'off',
    },
  })
  page = await newPage(browser)
  await signIn(page, server, { path: '/' })
  await waitForMap(page)
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await Promise.all([archives?.stop(), wms?.close(), koop?.close()])
  await new Promise((resolve) => (plain ? plain.close(resolve) : resolve(undefined)))
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/**
 * Painted pixels of a map layer (as paintedPixels counts them) whose colour is within `tolerance`
 * of `rgb` on each channel: the upstream's own tile colour, or our paint's colour for vector tiles.
 */
function pixelsOfColour(
  p: Page,
  mapLayerId: string,
  rgb: readonly number[],
  tolerance = 40,
): Promise<number> {
  return p.evaluate(
    ({ id, rgb, tolerance }) => {
      let n = 0
      const scratch = document.createElement('canvas')
      const count = (source: CanvasImageSource, w: number, h: number) => {
        if (w === 0 || h === 0) return
        scratch.width = w
        scratch.height = h
        const ctx = scratch.getContext('2d')
        if (!ctx) return
        ctx.clearRect(0, 0, w, h)
        ctx.drawImage(source, 0, 0)
        const d = ctx.getImageData(0, 0, w, h).data
        for (let i = 0; i < d.length; i += 16)
          if ((d[i + 3] ?? 0) > 0 && [0, 1, 2].every((k) => Math.abs((d[i + k] ?? 0) - rgb[k]!) <= tolerance))
            n++
      }
      for (const root of document.querySelectorAll(`.el-layer-${id}`)) {
        for (const c of root.querySelectorAll('canvas')) count(c, c.width, c.height)
        for (const img of root.querySelectorAll('img'))
          if (img.complete) count(img, img.naturalWidth, img.naturalHeight)
      }
      return n
    },
    { id: mapLayerId, rgb: [...rgb], tolerance },
  )
}

/** The vegetation legend's colour of class 22 (Urban), the class the COG holds. */
const VEGETATION_URBAN = ((): [number, number, number] => {
  const legend = layersConfig.legends.find((l) => l.id === 'vegetation')
  const hex = legend?.type === 'classes' ? legend.classes.find((c) => c.value === 22)?.color : undefined
  if (!hex || !/^#[0-9a-f]{6}$/i.test(hex)) throw new Error('no colour for vegetation class 22')
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
})()

/** Each layer, what serves it, and the colour it is drawn in (upstream tile colour or our paint). */
const LAYERS: readonly (readonly [string, string, readonly [number, number, number]])[] = [
  ['utility_gis_poles', 'ArcGIS FeatureServer from Koop', [0xff, 0xb0, 0x00]],
  ['utility_gis_imagery', 'XYZ from a static server', [30, 60, 220]],
  ['utility_gis_patrols', 'GeoJSON from a static server', [0xe0, 0x31, 0x31]],
  ['utility_gis_vegetation', 'a COG written by GDAL', VEGETATION_URBAN],
  [
    'utility_gis_basemap',
    'WMTS: GetCapabilities and RESTful tiles of a GoogleMapsCompatible set',
    [40, 160, 60],
  ],
  ['utility_gis_network', 'ArcGIS MapServer: the service JSON’s tile cache', [240, 140, 0]],
  ['utility_gis_circuits', 'TileJSON and its MVT tiles, painted by our line paint', [0x0c, 0xa6, 0x78]],
]

describe('layers of the utility’s own servers, switched on by their variables', () => {
  it('are offered in the sidebar once the server has them configured', async () => {
    for (const [id] of [
      ...LAYERS,
      ['utility_gis_hillshade'],
      ['utility_gis_zones'],
      ['utility_gis_work_areas'],
    ])
      await page.waitForSelector(mapSelectors.layerRow(id), { timeout: 15_000 })
  })

  it.each(LAYERS)('draws %s (%s) in pixels of its colour', async (id, _, rgb) => {
    await setLayerVisible(page, id, true)
    try {
      expect(await eventually(async () => (await pixelsOfColour(page, id, rgb)) > 50, 20_000)).toBe(true)
    } finally {
      await setLayerVisible(page, id, false)
    }
  })
})

describe('popups', () => {
  it('draws the WMS from MapServer in pixels, and shows its GetFeatureInfo answer where a zone is clicked', async () => {
    await setLayerVisible(page, 'utility_gis_zones', true)
    try {
      // MapServer runs once per GetMap (CGI): slower than the other servers on a busy machine.
      expect(
        await eventually(async () => (await paintedPixels(page, 'utility_gis_zones')) > 50, 60_000),
      ).toBe(true)
      await clickOnZone()
      await page.waitForSelector(mapSelectors.popup, { timeout: 15_000 })
      expect(await page.textContent(mapSelectors.popup)).toContain('Jemez Patrol Zone')
      await page.keyboard.press('Escape')
    } finally {
      await setLayerVisible(page, 'utility_gis_zones', false)
    }
  })

  it('shows a pole’s FeatureServer attributes where it is clicked', async () => {
    await setLayerVisible(page, 'utility_gis_poles', true)
    try {
      const point = await eventually(() => paintedPoint(page, 'utility_gis_poles'), 20_000)
      if (!point) throw new Error('no pole drawn')
      await page.mouse.click(point.x, point.y)
      await page.waitForSelector(`${mapSelectors.popup}:has-text("Pole ")`, { timeout: 15_000 })
      const text = (await page.textContent(mapSelectors.popup)) ?? ''
      expect(text).toMatch(/P-\d{3}/)
      expect(text).toContain('Emberline Test Utility')
      await page.keyboard.press('Escape')
    } finally {
      await setLayerVisible(page, 'utility_gis_poles', false)
    }
  })
})

/** Records the paths of the point queries (`/api/sources/<id>/info`) the page sends from now on. */
function recordInfoRequests(p: Page): { paths: string[]; stop: () => void } {
  const paths: string[] = []
  const onRequest = (r: Request) => {
    const { pathname } = new URL(r.url())
    if (/^\/api\/sources\/[^/]+\/info$/.test(pathname)) paths.push(pathname)
  }
  p.on('request', onRequest)
  return { paths, stop: () => p.off('request', onRequest) }
}

/** Clicks where the WMS's patrol zone is (the spot of the GetFeatureInfo case). */
async function clickOnZone(): Promise<void> {
  const map = await page.locator(mapSelectors.map).boundingBox()
  if (!map) throw new Error('no map')
  await page.mouse.click(map.x + map.width / 2 + 40, map.y + map.height / 2 + 10)
}

const ZONES_INFO = '/api/sources/utility_gis_zones_wms/info'
const VEGETATION_INFO = '/api/sources/utility_gis_vegetation_cog/info'

describe('popups of a switched-off layer', () => {
  // The COG under the zone answers every point: its popup shows that the click was handled, and
  // the zones' WMS (above it in the sidebar, so asked first) was or was not asked.
  it('asks nothing of the WMS once it is switched off: the click shows the COG beneath it', async () => {
    await setLayerVisible(page, 'utility_gis_zones', false)
    await setLayerVisible(page, 'utility_gis_vegetation', true)
    const info = recordInfoRequests(page)
    try {
      expect(
        await eventually(async () => (await paintedPixels(page, 'utility_gis_vegetation')) > 50, 20_000),
      ).toBe(true)
      await clickOnZone()
      await page.waitForSelector(`${mapSelectors.popup}:has-text("Vegetation Survey")`, { timeout: 15_000 })
      expect(await page.textContent(mapSelectors.popup)).not.toContain('Jemez')
      expect(info.paths).toContain(VEGETATION_INFO)
      expect(info.paths).not.toContain(ZONES_INFO)
      await page.keyboard.press('Escape')
    } finally {
      info.stop()
      await setLayerVisible(page, 'utility_gis_vegetation', false)
    }
  })
})

// After the WMS cases, so MapServer (one CGI process per request, slow on a busy machine) is not
// asked for GetMap tiles and OGC API items at once.
describe('OGC API – Features from MapServer', () => {
  it('draws the collection’s items in pixels, and shows an item’s attributes where it is clicked', async () => {
    await setLayerVisible(page, 'utility_gis_work_areas', true)
    try {
      expect(
        await eventually(async () => (await paintedPixels(page, 'utility_gis_work_areas')) > 50, 60_000),
      ).toBe(true)
      // MapServer runs one CGI process a request: on a loaded machine a tile or query may time out
      // (504), so click again until the item's popup comes, as a user would.
      const zonePopup = page.locator(`${mapSelectors.popup}:has-text("Jemez Patrol Zone")`)
      const shown = await eventually(async () => {
        await page.keyboard.press('Escape')
        await clickOnZone()
        return zonePopup.waitFor({ timeout: 10_000 }).then(
          () => true,
          () => false,
        )
      }, 45_000)
      expect(shown).toBe(true)
      const text = (await page.textContent(mapSelectors.popup)) ?? ''
      expect(text).toContain('Z9')
      expect(text).toContain('High')
      await page.keyboard.press('Escape')
    } finally {
      await setLayerVisible(page, 'utility_gis_work_areas', false)
    }
  })
})

const isPolesRecords = (r: Request) => r.url().includes('/api/sources/utility_gis_poles_fs/records')

describe('the FeatureServer attribute table', () => {
  it('pages through the server’s features and filters them on the server', async () => {
    const button = page.locator(tableSelectors.openTable('Poles (Utility ArcGIS)'))
    await button.scrollIntoViewIfNeeded()
    await Promise.all([page.waitForRequest(isPolesRecords), button.click()])
    await page.waitForSelector(`${tableSelectors.rows} >> nth=99`, { timeout: 20_000 })
    expect(await page.locator(tableSelectors.rows).count()).toBe(100)
    await Promise.all([page.waitForRequest(isPolesRecords), page.click(tableSelectors.next)])
    await expect.poll(() => page.locator(tableSelectors.rows).count(), { timeout: 15_000 }).toBe(50)
    await page.click('.emberline-add-filter-button')
    await page.selectOption('#emberline-filter-column', 'status')
    await page.fill('#emberline-filter-value', 'closed')
    await Promise.all([
      page.waitForRequest(isPolesRecords),
      page.click('form[aria-label="Add filter"] button[type="submit"]'),
    ])
    await expect.poll(() => page.locator(tableSelectors.rows).count(), { timeout: 15_000 }).toBe(15)
    const statuses = await page.locator(`${tableSelectors.rows} td[data-column="status"]`).allInnerTexts()
    expect(new Set(statuses)).toEqual(new Set(['Closed']))
  })
})

describe('when the archive server stops', () => {
  const id = 'utility_gis_hillshade'
  const badge = `[data-testid="${id}-source-status"]`

  it('shows Unavailable on the row, then clears it and draws the failed tiles once it is back', async () => {
    await archives.stop()
    await setLayerVisible(page, id, true)
    await page.waitForSelector(badge, { timeout: 20_000 })
    expect(await paintedPixels(page, id)).toBe(0)
    await archives.start()
    await page.waitForSelector(badge, { state: 'detached', timeout: 25_000 })
    expect(await eventually(async () => (await paintedPixels(page, id)) > 50, 15_000)).toBe(true)
  })
})

// Last: it reloads the page with the shared link (which sources are configured is read once).
describe('a layer hidden because its source is not configured', () => {
  it('is not asked on a click, even when a shared link switches it on', async () => {
    // The server here has the WMS configured; its status answer is changed on the way to the
    // browser to read as that of a server without EMBERLINE_UTILITY_WMS_URL (configured: false).
    await page.route('**/api/sources/status', async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { sources: { id: string; configured?: boolean }[] }
      for (const s of body.sources) if (s.id === 'utility_gis_zones_wms') s.configured = false
      await route.fulfill({ response, json: body })
    })
    const info = recordInfoRequests(page)
    try {
      // The map screen's own path (the root redirects, dropping the query).
      const { pathname } = new URL(page.url())
      await page.goto(`${server.url}${pathname}?layers=utility_gis_zones,utility_gis_vegetation`)
      await waitForMap(page)
      await page.waitForSelector(mapSelectors.layerRow('utility_gis_vegetation'), { timeout: 15_000 })
      expect(await page.locator(mapSelectors.layerRow('utility_gis_zones')).count()).toBe(0)
      expect(
        await eventually(async () => (await paintedPixels(page, 'utility_gis_vegetation')) > 50, 20_000),
      ).toBe(true)
      await clickOnZone()
      await page.waitForSelector(`${mapSelectors.popup}:has-text("Vegetation Survey")`, { timeout: 15_000 })
      expect(await page.textContent(mapSelectors.popup)).not.toContain('Jemez')
      expect(info.paths).toContain(VEGETATION_INFO)
      expect(info.paths).not.toContain(ZONES_INFO)
    } finally {
      info.stop()
      await page.unrouteAll({ behavior: 'ignoreErrors' })
    }
  })
})
