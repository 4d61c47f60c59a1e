import { execFileSync } from 'node:child_process'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { launchBrowser, signIn, sharedServer, type TestServer } from './support'
import {
  addFilter,
  apiRecords,
  mapPath,
  openTable,
  sessionToken,
  tableSelectors as sel,
  waitForIdle,
} from './tables.driver'

// GIS interoperability from the browser: the table's "Copy OGC URL" and "Export GIS" buttons and
// the Documentation's "Use in QGIS / GDAL" section, checked against the server and GDAL.
let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  page = await context.newPage()
  await signIn(page, server, { path: mapPath })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

beforeEach(async () => {
  await page.goto(`${server.url}${mapPath}`)
  await page.waitForSelector(sel.openTable('Historic Fires'), { state: 'attached' })
})

async function filteredHistoricFires(): Promise<number> {
  await openTable(page, 'Historic Fires', 'fire_extent_historic')
  await waitForIdle(page)
  const request = await addFilter(page, 'fire_extent_historic', {
    field: 'acres',
    operator: 'gt',
    value: '10',
  })
  await waitForIdle(page)
  const url = new URL(request.url())
  const records = await apiRecords(page, server, url.pathname + url.search)
  return records.total
}

describe('GIS interoperability in the browser', () => {
  it("'Copy OGC URL' copies the items URL of the table's filters; the server answers it with the table's total", async () => {
    const total = await filteredHistoricFires()
    await page.click('.emberline-copy-ogc-url')
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain('/ogc/collections/')
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    const url = new URL(copied)
    expect(url.origin).toBe(server.url)
    expect(url.pathname).toBe('/ogc/collections/fire_extent_historic/items')
    expect(url.searchParams.get('filter')).toBe('acres > 10')
    const res = await fetch(copied, { headers: { Authorization: `Bearer ${await sessionToken(page)}` } })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { numberMatched: number }).numberMatched).toBe(total)
  })

  it("'Export GIS' downloads a GeoPackage of the filtered rows that GDAL opens with the table's count", async () => {
    const total = await filteredHistoricFires()
    await page.click('.emberline-export-gis')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('.emberline-export-gpkg'),
    ])
    expect(download.suggestedFilename()).toBe('fire_extent_historic.gpkg')
    const file = await download.path()
    const info = execFileSync('ogrinfo', ['-ro', '-so', file, 'fire_extent_historic'], { encoding: 'utf8' })
    expect(Number(/Feature Count: (\d+)/.exec(info)?.[1])).toBe(total)
    expect(info).toMatch(/^acres: Real/m)
  })

  it("'Export GIS' also offers GeoJSON of the filtered rows", async () => {
    const total = await filteredHistoricFires()
    await page.click('.emberline-export-gis')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('.emberline-export-geojson'),
    ])
    const file = await download.path()
    const info = execFileSync('ogrinfo', ['-ro', '-so', file, 'fire_extent_historic'], { encoding: 'utf8' })
    expect(Number(/Feature Count: (\d+)/.exec(info)?.[1])).toBe(total)
  })

  it('the Documentation shows "Use in QGIS / GDAL" with this server\'s URLs and commands', async () => {
    await page.goto(`${server.url}/Documentation`)
    await page.waitForSelector('#gis-access')
    const text = await page.locator('#gis-access').innerText()
    expect(text).toContain(`${server.url}/ogc/collections/buildings`)
    expect(text).toContain(`${server.url}/api/tiles/buildings/tilejson.json`)
    expect(text).toContain(
      `ogr2ogr -f GPKG buildings.gpkg --config GDAL_HTTP_HEADERS "Authorization: Bearer $EMBERLINE_TOKEN" -oo PAGE_SIZE=10000 OAPIF:${server.url}/ogc buildings`,
    )
  })
})
