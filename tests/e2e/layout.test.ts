import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig } from '../../src/shared/config'
import { launchBrowser, newPage, screenshot, sharedServer, signIn, type TestServer } from './support'
import {
  consoleMessages,
  dockHeight,
  layoutSelectors as sel,
  mapBox,
  popoverComponents,
  until,
} from './layout.driver'

// A layout that keeps the map (issue 22): panels beneath the map can be collapsed and resized, the map
// keeps half the viewport with a table open, and on a phone the sidebar is a drawer over a full-width map.
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

const REACT19_POPOVER_WARNING = /positions content incorrectly under React 19/

async function openPage(
  width: number,
  height: number,
  path: string,
): Promise<{ page: Page; console: string[] }> {
  const page = await newPage(browser, { width, height })
  const messages = consoleMessages(page)
  await signIn(page, server, { path })
  await page.goto(`${server.url}${path}`)
  await page.waitForSelector(`${sel.map} .leaflet-tile-loaded`, { timeout: 30_000 })
  return { page, console: messages }
}

describe('desktop, 1440 × 900', () => {
  let page: Page
  let messages: string[]

  beforeAll(async () => {
    ;({ page, console: messages } = await openPage(1440, 900, '/DailyWildfireRisk'))
  })

  afterAll(() => page?.context().close())

  it('keeps half the viewport for the map on /DailyWildfireRisk with the forecast and a table open', async () => {
    await page.click(sel.openTable('EPSS'))
    await page.waitForSelector(sel.tablesPanel)
    const map = await until(
      () => mapBox(page),
      (b) => b.height >= 450,
    )
    await screenshot(page, 'layout-desktop-table')
    expect(map.height).toBeGreaterThanOrEqual(450)
    expect(await dockHeight(page, sel.routeDock)).toBeGreaterThan(32)
    expect(await dockHeight(page, sel.tablesDock)).toBeGreaterThan(32)
  })

  it('resizes the table panel from the keyboard through a named window splitter', async () => {
    const handle = page.locator(sel.handle(sel.tablesDock))
    expect(await handle.getAttribute('aria-label')).toBe('Resize Attribute tables')
    expect(await handle.getAttribute('aria-orientation')).toBe('horizontal')
    const before = await dockHeight(page, sel.tablesDock)
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(Math.round(before))
    await handle.focus()
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp')
    const grown = await until(
      () => dockHeight(page, sel.tablesDock),
      (h) => h >= before + 48,
    )
    expect(grown).toBe(before + 48)
    // Home: as tall as the map's minimum allows; the user asked for it, so the map may get smaller
    // than half the viewport
    await page.keyboard.press('Home')
    const shrunk = await until(
      () => mapBox(page),
      (b) => b.height < 450,
    )
    expect(shrunk.height).toBeLessThan(450)
    await page.keyboard.press('End')
    expect(
      await until(
        () => dockHeight(page, sel.tablesDock),
        (h) => h < before,
      ),
    ).toBeLessThan(before)
  })

  it('resizes the forecast panel by dragging its handle', async () => {
    const before = await dockHeight(page, sel.routeDock)
    const box = await page.locator(sel.handle(sel.routeDock)).boundingBox()
    if (!box) throw new Error('no handle')
    await page.mouse.move(box.x + 20, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + 20, box.y + box.height / 2 + 60, { steps: 4 })
    await page.mouse.up()
    expect(
      await until(
        () => dockHeight(page, sel.routeDock),
        (h) => h <= before - 50,
      ),
    ).toBe(before - 60)
  })

  it('collapses and shows the forecast panel, and the map grows', async () => {
    const mapBefore = (await mapBox(page)).height
    const toggle = page.locator(sel.toggle(sel.routeDock))
    expect(await toggle.getAttribute('aria-label')).toBe(`Hide ${appConfig.chart.title}`)
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(
      await until(
        () => dockHeight(page, sel.routeDock),
        (h) => h <= 33,
      ),
    ).toBeLessThanOrEqual(33)
    expect((await mapBox(page)).height).toBeGreaterThan(mapBefore)
    await toggle.click()
    expect(await toggle.getAttribute('aria-label')).toBe(`Hide ${appConfig.chart.title}`)
  })

  it('opens the More options menu and the Export GIS menu through PopoverNext, without the React 19 warning', async () => {
    await page.click(`button[aria-label="${appConfig.topBar.moreOptionsLabel}"]`)
    await page.waitForSelector('.bp6-popover .bp6-menu')
    await page.keyboard.press('Escape')
    await page.click('button.emberline-export-gis')
    await page.waitForSelector('.bp6-popover .emberline-export-geojson, .bp6-popover .bp6-menu')
    const kinds = await popoverComponents(page)
    expect(kinds.length).toBeGreaterThanOrEqual(2)
    expect(kinds.filter((k) => !k.endsWith('.PopoverNext'))).toEqual([])
    await page.keyboard.press('Escape')
    expect(messages.filter((m) => REACT19_POPOVER_WARNING.test(m))).toEqual([])
  })
})

describe('phone, 390 × 844', () => {
  let page: Page
  let messages: string[]

  beforeAll(async () => {
    ;({ page, console: messages } = await openPage(390, 844, '/DailyWildfireRisk'))
  })

  afterAll(() => page?.context().close())

  it('draws the map full width with the layer sidebar in a drawer', async () => {
    expect(await page.locator(sel.sidebar).count()).toBe(0)
    const map = await mapBox(page)
    expect(map.width).toBe(390)
    expect(map.height).toBeGreaterThanOrEqual(844 / 2)
    const toggle = page.locator(sel.layersToggle)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await toggle.click()
    await page.waitForSelector(`${sel.layersDrawer} ${sel.sidebar}`)
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await screenshot(page, 'layout-phone-drawer')
    await page.keyboard.press('Escape')
    await until(
      () => page.locator(sel.layersDrawer).count(),
      (n) => n === 0,
    )
    expect(await page.locator(sel.layersDrawer).count()).toBe(0)
  })

  it('opens a table from the drawer, closes the drawer and keeps half the viewport for the map', async () => {
    await page.click(sel.layersToggle)
    await page.click(`${sel.layersDrawer} ${sel.openTable('EPSS')}`)
    await page.waitForSelector(sel.tablesPanel)
    expect(
      await until(
        () => page.locator(sel.layersDrawer).count(),
        (n) => n === 0,
      ),
    ).toBe(0)
    const map = await until(
      () => mapBox(page),
      (b) => b.height >= 422,
    )
    await screenshot(page, 'layout-phone-table')
    expect(map.width).toBe(390)
    expect(map.height).toBeGreaterThanOrEqual(422)
    expect(await dockHeight(page, sel.tablesDock)).toBeGreaterThan(32)
  })

  it('keeps half the viewport for the map on /PSPS with its panel and a table open', async () => {
    await page.goto(`${server.url}/PSPS`)
    await page.waitForSelector(`${sel.map} .leaflet-tile-loaded`, { timeout: 30_000 })
    await page.click(sel.layersToggle)
    await page.click(`${sel.layersDrawer} ${sel.openTable('PSPS')}`)
    await page.waitForSelector(sel.tablesPanel)
    const map = await until(
      () => mapBox(page),
      (b) => b.height >= 422,
    )
    expect(map.height).toBeGreaterThanOrEqual(422)
  })

  it('opens the navigation drawer and the Export GIS menu without the React 19 warning', async () => {
    await page.click('button[aria-label="Open menu"]')
    await page.waitForSelector('.emberline-drawer .bp6-menu')
    await page.keyboard.press('Escape')
    await page.click('button.emberline-export-gis')
    await page.waitForSelector('.bp6-popover .bp6-menu')
    const kinds = await popoverComponents(page)
    expect(kinds.length).toBeGreaterThanOrEqual(1)
    expect(kinds.filter((k) => !k.endsWith('.PopoverNext'))).toEqual([])
    expect(messages.filter((m) => REACT19_POPOVER_WARNING.test(m))).toEqual([])
  })
})
