import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, screenshot, signIn, startServer, type TestServer } from './support'
import { eventually, mapSelectors, paintedPixels, recordRequests, waitForMap } from './map.driver'

let server: TestServer
let browser: Browser
let page: Page
let requests: string[]

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1400, height: 900 })
  requests = recordRequests(page)
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
    const wanted = [
      /^\/api\/basemap\/\d+\/\d+\/\d+$/,
      /^\/api\/tiles\/demo\/asset_data\/transmission_lines\/mvt\/\d+\/\d+\/\d+$/,
      /^\/api\/tiles\/demo\/asset_data\/distribution_lines\/mvt\/\d+\/\d+\/\d+$/,
      /^\/api\/tiles\/public_safety_power_shutoff\/next_psps_lines\/mvt\/\d+\/\d+\/\d+$/,
      /^\/api\/tiles\/public_safety_power_shutoff\/next_psps_score\/png\/\d+\/\d+\/\d+/,
      /^\/api\/tiles\/enhanced_powerline_safety_settings\/png\/\d+\/\d+\/\d+/,
    ]
    for (const re of wanted)
      expect(await eventually(() => requests.some((u) => re.test(u))), String(re)).toBe(true)
    expect(await eventually(async () => (await paintedPixels(page, 'psps_score')) > 0)).toBe(true)
    expect(await eventually(async () => (await paintedPixels(page, 'distribution_lines')) > 0)).toBe(true)
    await page.waitForTimeout(1500)
    await screenshot(page, 'map-default')
  })

  it('shows the PSPS panel texts and only the selected sub-layer legend', async () => {
    const row = page.locator(mapSelectors.layerRow('psps'))
    await expect(row.getByText('Next Event: March 6th at 3pm')).toBeTruthy()
    expect(await row.textContent()).toContain('Lines Recommended for De-Energization')
    expect(await row.textContent()).toContain('Wind Speed Percentile: 99th')
    expect(await row.locator('.el-sublayer-legend').count()).toBe(1)
  })
})
