import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig, resolveColor } from '../../src/shared/config'
import { launchBrowser, newPage, screenshot, sharedServer, signIn, type TestServer } from './support'
import { colourDistance, hexRgb, labelsOverData, screenshotColours } from './legibility.driver'
import { until } from './layout.driver'

// A legible first view (issue 22): with the default layers on, the basemap's place names are drawn
// above the rasters. Checked on the page's own screenshot: where the labels pane paints a name over a
// painted raster pixel, the screen shows the name's colour, not the data's.
let server: TestServer
let browser: Browser
let page: Page
const label = hexRgb(resolveColor('basemapLabel'))

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1440, height: 900 })
  await signIn(page, server, { path: '/DailyWildfireRisk' })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const [liveLng, liveLat] = appConfig.map.live.center
const views = [
  { name: 'default demo view', path: '/DailyWildfireRisk' },
  {
    name: 'default non-demo view',
    path: `/DailyWildfireRisk?c=${liveLng},${liveLat}&z=${appConfig.map.live.zoom}`,
  },
]

describe.each(views)('$name', ({ name, path }) => {
  it('shows the place names over the default rasters', async () => {
    await page.goto(`${server.url}${path}`)
    await page.waitForSelector('.el-map .el-basemap-labels canvas.leaflet-tile-loaded', { timeout: 30_000 })
    await page.waitForSelector('.el-map [class*="el-layer-"] img.leaflet-tile-loaded', { timeout: 30_000 })
    const points = await until(
      () => labelsOverData(page, label),
      (p) => p.length >= 10,
      20_000,
    )
    await screenshot(page, `legibility-${name.replaceAll(' ', '-')}`)
    expect(points.length).toBeGreaterThanOrEqual(10)
    const shown = await screenshotColours(page, points)
    const legible = points.filter((p, i) => {
      const onScreen = shown[i] ?? [0, 0, 0]
      return colourDistance(onScreen, label) <= 40 && colourDistance(onScreen, p.data) > 40
    })
    expect(legible.length / points.length).toBeGreaterThanOrEqual(0.8)
  })
})
