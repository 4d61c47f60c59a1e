import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig, layerById } from '../../src/shared/config'
import { focusInfo, focusMatches, tabTo } from './a11y.driver'
import { mapSelectors, urlView, waitForMap } from './map.driver'
import { api } from './operations.driver'
import { launchBrowser, newPage, sharedServer, signIn, type TestServer } from './support'
import { isRecordsRequest, requestFilters, tableSelectors, waitForIdle } from './tables.driver'

/**
 * Issue #22 item 2: keyboard alone, with visible focus. Every journey uses page.keyboard only
 * (the page is opened by URL); tabTo() fails when any element focused on the way shows no focus
 * indicator.
 */

const announcer = '[data-testid="layer-announcer"]'
const moreOptions = `button[aria-label="${appConfig.topBar.moreOptionsLabel}"]`

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function focusIsVisible(page: Page): Promise<void> {
  const info = await focusInfo(page)
  expect(info.visible, `focus indicator on ${info.description}`).toBe(true)
}

describe('keyboard only at 1440 × 900', () => {
  let page: Page
  beforeAll(async () => {
    page = await newPage(browser, { width: 1440, height: 900 })
    await signIn(page, server, { path: '/PSPS' })
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it('turns a layer on, chooses a PSPS sub-layer and moves an intensity slider; each change is announced', async () => {
    await page.goto(`${server.url}/PSPS`)
    await waitForMap(page)
    const redFlag = layerById('red_flag_warnings')

    await tabTo(page, mapSelectors.layerSwitch(redFlag.id))
    await page.keyboard.press('Space')
    expect(await page.isChecked(mapSelectors.layerSwitch(redFlag.id))).toBe(true)
    await expect.poll(() => page.textContent(announcer)).toBe(`${redFlag.name} turned on`)
    expect(await page.getAttribute(announcer, 'aria-live')).toBe('polite')

    // PSPS is listed above: back to its expand button, open it, then its radio group.
    const psps = layerById('psps')
    await tabTo(page, mapSelectors.expand(psps.id), { backwards: true })
    if ((await page.getAttribute(mapSelectors.expand(psps.id), 'aria-expanded')) !== 'true')
      await page.keyboard.press('Enter')
    await expect.poll(() => page.getAttribute(mapSelectors.expand(psps.id), 'aria-expanded')).toBe('true')
    const radios = `${mapSelectors.layerRow(psps.id)} input[type="radio"]`
    await tabTo(page, radios)
    const before = await page.evaluate(() => (document.activeElement as HTMLInputElement).value)
    await page.keyboard.press('ArrowDown')
    const after = await page.evaluate(() => (document.activeElement as HTMLInputElement).value)
    expect(after).not.toBe(before)
    expect(await page.isChecked(`${radios}[value="${after}"]`)).toBe(true)
    await focusIsVisible(page)
    await expect.poll(() => urlView(page.url()).sub).toBe(`${psps.id}:${after}`)
    const chosen = psps.subLayers?.find((s) => s.id === after)?.name
    await expect.poll(() => page.textContent(announcer)).toBe(`${psps.name}: ${chosen} selected`)

    // The Red Flag Warnings intensity slider: expand the layer, Tab to its handle, arrow left.
    await tabTo(page, mapSelectors.expand(redFlag.id))
    await page.keyboard.press('Enter')
    const handle = `[role="slider"][aria-label="${redFlag.name} intensity"]`
    await tabTo(page, handle)
    const start = Number(await page.getAttribute(handle, 'aria-valuenow'))
    await page.keyboard.press('ArrowLeft')
    await expect.poll(async () => Number(await page.getAttribute(handle, 'aria-valuenow'))).toBe(start - 1)

    // And off again.
    await tabTo(page, mapSelectors.layerSwitch(redFlag.id), { backwards: true })
    await page.keyboard.press('Space')
    await expect.poll(() => page.textContent(announcer)).toBe(`${redFlag.name} turned off`)
  })

  it('sorts the PSPS roll-up table', async () => {
    await page.goto(`${server.url}/PSPS`)
    await page.waitForSelector('.el-psps-table tbody tr')
    const sortButton = '.el-psps-table th button'
    await tabTo(page, sortButton)
    const field = await page.evaluate(() => document.activeElement?.closest('th')?.dataset.field ?? '')
    const th = `.el-psps-table th[data-field="${field}"]`
    const before = await page.getAttribute(th, 'aria-sort')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getAttribute(th, 'aria-sort')).not.toBe(before)
    expect(await focusMatches(page, sortButton)).toBe(true)
    await focusIsVisible(page)
  })

  it('opens a table, adds a filter and turns the page', async () => {
    await page.goto(`${server.url}/PSPS`)
    await waitForMap(page)
    const opened = page.waitForRequest(isRecordsRequest('fire_extent_historic'))
    await tabTo(page, tableSelectors.openTable('Historic Fires'))
    await page.keyboard.press('Enter')
    await opened
    await page.waitForSelector(tableSelectors.panel)
    await waitForIdle(page)

    await tabTo(page, '.emberline-add-filter-button')
    await page.keyboard.press('Enter')
    await page.waitForSelector('form[aria-label="Add filter"]')
    // The value field takes focus; the condition is the field before it.
    await expect.poll(() => focusMatches(page, '#emberline-filter-value')).toBe(true)
    await page.keyboard.press('Shift+Tab')
    expect(await focusMatches(page, '#emberline-filter-operator')).toBe(true)
    await focusIsVisible(page)
    for (let i = 0; i < 6 && (await page.inputValue('#emberline-filter-operator')) !== 'gte'; i++)
      await page.keyboard.press('ArrowDown')
    expect(await page.inputValue('#emberline-filter-operator')).toBe('gte')
    expect(await page.inputValue('#emberline-filter-column')).toBe('acres')
    await page.keyboard.press('Tab')
    await page.keyboard.type('10')
    const [filtered] = await Promise.all([
      page.waitForRequest(isRecordsRequest('fire_extent_historic')),
      page.keyboard.press('Enter'),
    ])
    expect(requestFilters(filtered)).toEqual([{ field: 'acres', type: 'gte', value: 10 }])
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('form[aria-label="Add filter"]').count()).toBe(0)
    await waitForIdle(page)
    await expect.poll(() => page.locator(tableSelectors.chip).count()).toBe(1)

    await tabTo(page, tableSelectors.next)
    const [paged] = await Promise.all([
      page.waitForRequest(isRecordsRequest('fire_extent_historic')),
      page.keyboard.press('Enter'),
    ])
    expect(new URL(paged.url()).searchParams.get('offset')).toBe(String(appConfig.tables.itemsPerPage))
    expect(requestFilters(paged)).toHaveLength(1)
    await expect.poll(() => page.locator(tableSelectors.page).innerText()).toMatch(/^Page 2 of \d+$/)

    // Delete closes the focused table tab.
    await tabTo(page, `${tableSelectors.tab('fire_extent_historic')}`, { backwards: true })
    await page.keyboard.press('Delete')
    await expect.poll(() => page.locator(tableSelectors.panel).count()).toBe(0)
  })

  it('opens and closes the More options menu; focus goes back to its button', async () => {
    await page.goto(`${server.url}${appConfig.routes.default}`)
    await waitForMap(page)
    await tabTo(page, moreOptions)
    await page.keyboard.press('Enter')
    const menu = page.locator('.bp6-popover .bp6-menu')
    await menu.waitFor()
    // Focus is in the popover: Tab reaches its entries (the popover itself is a stop on the way).
    await tabTo(page, '.bp6-popover .bp6-menu-item', { max: 4 })
    await page.keyboard.press('Escape')
    await expect.poll(() => menu.count()).toBe(0)
    await expect.poll(() => focusMatches(page, moreOptions)).toBe(true)
    await focusIsVisible(page)
  })

  it('opens the popup of the feature at the map centre with Enter; Escape closes it', async () => {
    // Centre the map on a weather station (its position read from the OGC API, not the screen).
    const items = await api<{ features: { geometry: { coordinates: number[] } }[] }>(
      page,
      server,
      '/ogc/collections/weather_stations_raws/items?limit=1',
    )
    const [lng, lat] = items.features[0]?.geometry.coordinates ?? []
    await page.goto(
      `${server.url}${appConfig.routes.default}?c=${lng},${lat}&z=13&layers=weather_stations_raws`,
    )
    await waitForMap(page)
    await tabTo(page, mapSelectors.map)
    await page.keyboard.press('Enter')
    const popup = page.locator(mapSelectors.popup)
    await popup.waitFor({ timeout: 10_000 })
    expect(await focusMatches(page, mapSelectors.popup)).toBe(true)
    await focusIsVisible(page)
    await page.keyboard.press('Escape')
    await expect.poll(() => popup.count()).toBe(0)
    expect(await focusMatches(page, mapSelectors.map)).toBe(true)
  })
})

describe('keyboard only at 390 × 844 (phone)', () => {
  let page: Page
  beforeAll(async () => {
    page = await newPage(browser, { width: 390, height: 844 })
    await signIn(page, server, { path: '/PSPS' })
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it('opens the Layers drawer, turns a layer on, and Escape gives focus back to the Layers button', async () => {
    await page.goto(`${server.url}/PSPS`)
    await waitForMap(page)
    const toggle = 'button.el-layers-toggle'
    await tabTo(page, toggle)
    await page.keyboard.press('Enter')
    await page.waitForSelector('.el-layers-drawer .el-sidebar')
    const redFlag = layerById('red_flag_warnings')
    await tabTo(page, mapSelectors.layerSwitch(redFlag.id))
    await page.keyboard.press('Space')
    await expect.poll(() => page.textContent(announcer)).toBe(`${redFlag.name} turned on`)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('.el-layers-drawer').count()).toBe(0)
    await expect.poll(() => focusMatches(page, toggle)).toBe(true)
    await focusIsVisible(page)
  })

  it('opens the navigation drawer and closes it with Escape', async () => {
    await page.goto(`${server.url}${appConfig.routes.default}`)
    await waitForMap(page)
    const menuButton = 'button[aria-label="Open menu"]'
    await tabTo(page, menuButton)
    await page.keyboard.press('Enter')
    await page.waitForSelector('.emberline-drawer .bp6-menu')
    await tabTo(page, '.emberline-drawer .bp6-menu-item', { max: 6 })
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('.emberline-drawer').count()).toBe(0)
    await expect.poll(() => focusMatches(page, menuButton)).toBe(true)
  })
})
