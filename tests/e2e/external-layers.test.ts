import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig } from '../../src/shared/config'
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
// EMBERLINE_UTILITY_* variables, drawn from real servers started here — MapServer (WMS), Koop
// (ArcGIS FeatureServer), a plain static server (XYZ, GeoJSON), a PMTiles archive and a COG
// written by GDAL behind a byte-range server — through our proxy, in pixels.

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

/** The plain static server: any tile path answers a blue PNG; /patrols.geojson a patrol route. */
async function startPlain(): Promise<string> {
  const blue = solidPng([30, 60, 220])
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
    if (req.url?.startsWith('/patrols.geojson'))
      res.writeHead(200, { 'content-type': 'application/geo+json' }).end(patrols)
    else if (req.url?.startsWith('/xyz/')) res.writeHead(200, { 'content-type': 'image/png' }).end(blue)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
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

const LAYERS = [
  ['utility_gis_poles', 'ArcGIS FeatureServer from Koop'],
  ['utility_gis_imagery', 'XYZ from a static server'],
  ['utility_gis_patrols', 'GeoJSON from a static server'],
  ['utility_gis_vegetation', 'a COG written by GDAL'],
] as const

describe('layers of the utility’s own servers, switched on by their variables', () => {
  it('are offered in the sidebar once the server has them configured', async () => {
    for (const [id] of [...LAYERS, ['utility_gis_hillshade']])
      await page.waitForSelector(mapSelectors.layerRow(id), { timeout: 15_000 })
  })

  it.each(LAYERS)('draws %s (%s) in pixels', async (id) => {
    await setLayerVisible(page, id, true)
    try {
      expect(await eventually(async () => (await paintedPixels(page, id)) > 50, 20_000)).toBe(true)
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
      const map = await page.locator(mapSelectors.map).boundingBox()
      if (!map) throw new Error('no map')
      await page.mouse.click(map.x + map.width / 2 + 40, map.y + map.height / 2 + 10)
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
