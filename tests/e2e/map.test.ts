import { join } from 'node:path'
import type { Browser, Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envGatedLayerIds, layersConfig, mapLayerById, sourceById } from '../../src/shared/config'
import {
  launchBrowser,
  newPage,
  resultsDir,
  screenshot,
  signIn,
  sharedServer,
  type TestServer,
} from './support'
import {
  eventually,
  expandLayer,
  mapSelectors,
  paintedPixels,
  paintedPoint,
  recordRequests,
  setLayerVisible,
  urlView,
  waitForMap,
} from './map.driver'

let server: TestServer
let browser: Browser
let page: Page
let requests: string[]
const okTiles: string[] = []

/** Path prefix of a map layer's tiles in demo mode, from config. */
function tilePrefix(mapLayerId: string): string | null {
  const source = sourceById(mapLayerById(mapLayerId).source)
  if (source.type !== 'mvt' && source.type !== 'png') return null
  return `/api/tiles/${source.demoPath ?? source.path}/${source.type}/`
}

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1400, height: 900 })
  requests = recordRequests(page)
  page.on('response', async (r: Response) => {
    if (r.status() === 200 && /^\/api\/(tiles|basemap)\//.test(new URL(r.url()).pathname))
      okTiles.push(new URL(r.url()).pathname)
  })
  await signIn(page, server, { path: '/PSPS' })
  await page.goto(`${server.url}/PSPS`)
  await waitForMap(page)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('map screen', () => {
  it('draws the default layers from their configured tile URLs', async () => {
    const wanted = [/^\/api\/basemap\/\d+\/\d+\/\d+$/]
    for (const id of [
      'transmission_lines',
      'distribution_lines',
      'psps_line',
      'psps_score',
      'epss_line',
      'epss_score',
    ])
      wanted.push(new RegExp(`^${tilePrefix(id)}\\d+/\\d+/\\d+`))
    for (const re of wanted)
      expect(await eventually(() => requests.some((u) => re.test(u))), String(re)).toBe(true)
    expect(
      await eventually(() => okTiles.some((u) => u.startsWith('/api/basemap/'))),
      'basemap tiles 200',
    ).toBe(true)
    expect(await eventually(async () => (await paintedPixels(page, 'psps_score')) > 0)).toBe(true)
    expect(await eventually(async () => (await paintedPixels(page, 'distribution_lines')) > 0)).toBe(true)
    expect(await page.locator('.leaflet-control-scale').count()).toBe(1)
    expect(await page.locator('a[aria-label="Show my location"]').count()).toBe(1)
    await page.waitForTimeout(1500)
    await screenshot(page, 'map-default')
  })

  it('shows the PSPS panel texts and only the selected sub-layer legend', async () => {
    const text = (await page.locator(mapSelectors.layerRow('psps')).textContent()) ?? ''
    for (const s of [
      'Next Event: March 6th at 3pm',
      'Lines Recommended for De-Energization',
      'Wind Speed Percentile: 99th',
    ])
      expect(text).toContain(s)
    expect(await page.locator(`${mapSelectors.layerRow('psps')} .el-sublayer-legend`).count()).toBe(1)
    const epss = (await page.locator(mapSelectors.layerRow('epss')).textContent()) ?? ''
    for (const s of ['Next Event: March 6th at 3pm', 'Lines Recommended for Non-Reclose', 'EPSS Risk Score'])
      expect(epss).toContain(s)
  })

  // Layers of the utility's own servers are not offered in the demo (their variables are unset).
  const gated = envGatedLayerIds()
  const hidden = layersConfig.layers.filter(
    (l) => l.inDefaultList !== false && !l.visible && !gated.has(l.id),
  )
  it.each(hidden.map((l) => [l.id]))(
    'toggling %s requests its configured tiles and draws what they hold',
    async (layerId) => {
      const layer = layersConfig.layers.find((l) => l.id === layerId)
      await setLayerVisible(page, layerId, true)
      try {
        for (const mapLayerId of layer?.layers ?? []) {
          const prefix = tilePrefix(mapLayerId)
          if (!prefix) continue
          expect(await eventually(() => requests.some((u) => u.startsWith(prefix))), prefix).toBe(true)
          await page.waitForTimeout(500)
          // Transparent hit circles (thermal_hotspots) draw nothing by design; empty tiles (204) neither.
          if (okTiles.some((u) => u.startsWith(prefix)) && mapLayerId !== 'thermal_hotspots') {
            const painted = await eventually(async () => (await paintedPixels(page, mapLayerId)) > 0, 30_000)
            expect(painted, `${mapLayerId} pixels`).toBe(true)
          }
        }
      } finally {
        await setLayerVisible(page, layerId, false)
      }
    },
    90_000,
  )

  it('the PSPS radio switches the raster and the URL keeps it', async () => {
    await page
      .locator(`${mapSelectors.layerRow('psps')} label:has-text("Wind Speed") input`)
      .first()
      .check({ force: true })
    const prefix = tilePrefix('psps_wind_speed') ?? ''
    expect(await eventually(() => requests.some((u) => u.startsWith(prefix)))).toBe(true)
    expect(await eventually(async () => (await page.locator('.el-layer-psps_score').count()) === 0)).toBe(
      true,
    )
    expect(await eventually(async () => (await paintedPixels(page, 'psps_wind_speed')) > 0)).toBe(true)
    expect(urlView(page.url()).sub).toBe('psps:psps_wind_speed')
    await page
      .locator(mapSelectors.layerRow('psps'))
      .screenshot({ path: join(resultsDir, 'map-psps-panel.png') })
  })

  it('shows no intensity control on EPSS, PSPS, Thermal Hotspot, Critical Infrastructure, Weather Stations (spec §9)', async () => {
    for (const id of [
      'epss',
      'psps',
      'viirs_thermal_hotspot',
      'critical_infrastructure',
      'weather_stations_raws',
    ]) {
      await expandLayer(page, id)
      expect(await page.locator(`[data-testid="${id}-intensity"]`).count(), id).toBe(0)
      expect(await page.locator(`[data-testid="${id}-sublayer-intensity"]`).count(), id).toBe(0)
    }
    await expandLayer(page, 'buildings')
    expect(await page.locator('[data-testid="buildings-intensity"]').count()).toBe(1)
  })

  it('a click on a transmission line shows its configured popup fields', async () => {
    for (const id of ['epss', 'psps', 'distribution_lines']) await setLayerVisible(page, id, false)
    const point = await eventually(() => paintedPoint(page, 'transmission_lines'))
    expect(point).not.toBeNull()
    await page.mouse.click(point?.x ?? 0, point?.y ?? 0)
    const popup = page.locator(mapSelectors.popup)
    await popup.waitFor({ timeout: 10_000 })
    const text = (await popup.textContent()) ?? ''
    for (const label of [
      'Circuit length (mi)',
      'Identifier',
      'Nominal voltage (kV)',
      'Operating voltage (kV)',
    ])
      expect(text).toContain(label)
    await screenshot(page, 'map-popup')
  })

  it('a click on a PSPS line with fire consequence shown draws its consequence contours instead of a popup', async () => {
    await page.keyboard.press('Escape')
    await setLayerVisible(page, 'transmission_lines', false)
    await setLayerVisible(page, 'psps', true)
    await page
      .locator(`${mapSelectors.layerRow('psps')} label:has-text("Fire Consequence Score") input`)
      .check({ force: true })
    await page.mouse.click(5, 5)
    const point = await eventually(() => paintedPoint(page, 'psps_line'))
    expect(point).not.toBeNull()
    const before = requests.length
    await page.mouse.click(point?.x ?? 0, point?.y ?? 0)
    const prefix = tilePrefix('psps_fire_consequence_mvts') ?? ''
    expect(await eventually(() => requests.slice(before).some((u) => u.startsWith(prefix)))).toBe(true)
    expect(await page.locator('.el-layer-psps_fire_consequence_mvts').count()).toBe(1)
    expect(await page.locator(mapSelectors.popup).count()).toBe(0)
  })

  it('the share URL reopens the same view', async () => {
    await page.locator('.leaflet-control-zoom-in').click()
    await page.waitForTimeout(800)
    const shared = page.url()
    const view = urlView(shared)
    expect(view.layers).toBe('psps')
    const other = await newPage(browser, { context: page.context() })
    await other.goto(shared)
    await waitForMap(other)
    await other.waitForTimeout(800)
    const reopened = urlView(other.url())
    expect(reopened).toEqual(view)
    expect(await other.locator(mapSelectors.layerSwitch('psps')).isChecked()).toBe(true)
    expect(await other.locator(mapSelectors.layerSwitch('transmission_lines')).isChecked()).toBe(false)
    expect(
      await other
        .locator(`${mapSelectors.layerRow('psps')} label:has-text("Fire Consequence Score") input`)
        .isChecked(),
    ).toBe(true)
    await other.close()
  })
})
