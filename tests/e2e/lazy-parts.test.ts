import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { riskSelectors } from './risk.driver'
import { closeSignedInPage, newPage, openSignedInPage, type TestServer } from './support'
import { tableSelectors } from './tables.driver'

// A lazily loaded part whose chunk fails to arrive (network cut, a deploy that removed it) fails only
// that part: its place says so with a Retry, the route and the rest of the screen keep working (#29).
// The failure is a network failure of the chunk's request, made with Playwright's route interception.

let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage('/DailyWildfireRisk'))
}, 180_000)

afterAll(() => closeSignedInPage({ server, browser }))

/** A signed-in page whose requests for one chunk (by its file-name prefix) fail until `restore()`. */
async function pageWithFailingChunk(chunk: string): Promise<{ tab: Page; restore: () => Promise<void> }> {
  const tab = await newPage(browser, { context: page.context(), width: 1440, height: 900 })
  const pattern = new RegExp(`/assets/${chunk}-[^/]+\\.js$`)
  await tab.route(pattern, (route) => route.abort('connectionfailed'))
  return { tab, restore: () => tab.unroute(pattern) }
}

const partError = (what: string) => `.el-lazy-part-error:has-text("${what} could not be loaded")`

describe('a lazily loaded part that fails to load', () => {
  it('fails only the forecast chart on Daily Wildfire Risk, and Retry loads it', async () => {
    const { tab, restore } = await pageWithFailingChunk('ForecastChart')
    await tab.goto(`${server.url}/DailyWildfireRisk`)
    await tab.waitForSelector(partError('The forecast chart'), { timeout: 60_000 })
    // the rest of the screen: the map with its tiles, the sidebar, the day cards beside the chart
    await tab.waitForSelector('.leaflet-container .leaflet-tile-loaded')
    expect(await tab.locator('[data-testid="day-card"]').count()).toBeGreaterThan(0)
    expect(await tab.locator('.emberline-route-error').count()).toBe(0)
    await restore()
    await tab.locator(partError('The forecast chart')).getByRole('button', { name: 'Retry' }).click()
    await tab.waitForSelector(`${riskSelectors.chart} .apexcharts-svg`, { timeout: 60_000 })
    expect(await tab.locator('.el-lazy-part-error').count()).toBe(0)
    await tab.close()
  })

  it('fails only the attribute-tables panel on the map, and Retry opens the table', async () => {
    const { tab, restore } = await pageWithFailingChunk('AttributeTablesPanel')
    await tab.goto(`${server.url}/PSPS`)
    const open = tab.locator(tableSelectors.openTable('Active Fires'))
    await open.scrollIntoViewIfNeeded()
    await open.click()
    await tab.waitForSelector(partError('The attribute tables'), { timeout: 60_000 })
    // the map and its sidebar are still there and still answer
    expect(await tab.locator('.leaflet-container').count()).toBe(1)
    expect(await tab.locator('.emberline-route-error').count()).toBe(0)
    await expect.poll(() => open.isEnabled()).toBe(true)
    await restore()
    await tab.locator(partError('The attribute tables')).getByRole('button', { name: 'Retry' }).click()
    // the table opened before (its rows are fetched by the tables state, not the panel) is shown
    await tab.waitForSelector(`${tableSelectors.panel} ${tableSelectors.rows}`, { timeout: 60_000 })
    expect(await tab.locator(tableSelectors.view).getAttribute('data-table-id')).toBeTruthy()
    expect(await tab.locator('.el-lazy-part-error').count()).toBe(0)
    await tab.close()
  })
})
