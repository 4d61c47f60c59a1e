import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { formatValue } from '../../src/shared/format'
import { launchBrowser, newPage, signIn, sharedServer, type TestServer } from './support'
import {
  addFilter,
  apiRecords,
  columnTexts,
  currentTableId,
  mapPath,
  openTable,
  requestFilters,
  tableSelectors as sel,
  waitForIdle,
} from './tables.driver'

let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1440, height: 900 })
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

describe('attribute tables', () => {
  it('opens two tables as tabs and switches between them', async () => {
    const first = await openTable(page, 'Active Fires', 'fire_extent_active')
    expect(first.headers()['authorization']).toMatch(/^Bearer .+/)
    expect(first.headers()['content-type']).toBe('application/json')
    await page.waitForSelector(sel.panel)
    await openTable(page, 'Historic Fires', 'fire_extent_historic')
    await expect.poll(() => currentTableId(page)).toBe('fire_extent_historic')
    expect(await page.getAttribute(sel.tab('active_fires'), 'aria-selected')).toBe('false')
    await page.click(sel.tab('active_fires'))
    await expect.poll(() => currentTableId(page)).toBe('active_fires')
    expect(await page.getAttribute(sel.tab('active_fires'), 'aria-selected')).toBe('true')
  })

  it('closing the current table makes the first remaining one current; closing the last hides the panel', async () => {
    await openTable(page, 'Active Fires', 'fire_extent_active')
    await openTable(page, 'Historic Fires', 'fire_extent_historic')
    await openTable(page, 'Buildings', 'buildings')
    await expect.poll(() => currentTableId(page)).toBe('buildings')
    await page.click(sel.close('Buildings'))
    await expect.poll(() => currentTableId(page)).toBe('active_fires')
    await page.click(sel.close('Active Fires'))
    await expect.poll(() => currentTableId(page)).toBe('fire_extent_historic')
    await page.click(sel.close('Historic Fires'))
    await page.waitForSelector(sel.panel, { state: 'detached' })
  })

  it('a numeric filter is sent with its operator and narrows the rows', async () => {
    const opened = await openTable(page, 'Historic Fires', 'fire_extent_historic')
    const all = await apiRecords(page, server, new URL(opened.url()).pathname + '?limit=100&offset=0')
    const acres = all.records.map((r) => Number(r.acres)).sort((a, b) => a - b)
    const threshold = Math.round(acres[Math.floor(acres.length / 2)] ?? 0)
    const request = await addFilter(page, 'fire_extent_historic', {
      field: 'acres',
      operator: 'gte',
      value: String(threshold),
    })
    expect(requestFilters(request)).toEqual([{ field: 'acres', value: threshold, type: 'gte' }])
    expect(new URL(request.url()).searchParams.get('offset')).toBe('0')
    const expected = await apiRecords(
      page,
      server,
      new URL(request.url()).pathname + new URL(request.url()).search,
    )
    expect(expected.total).toBeLessThan(all.total)
    await waitForIdle(page)
    await expect
      .poll(() => columnTexts(page, 'acres'))
      .toEqual(expected.records.map((r) => formatValue('sigfig3', r.acres)))
    expect(await page.locator(sel.chip).innerText()).toBe(`Acres ≥ ${threshold}`)
    const [removal] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/fire_extent_historic/records')),
      page.click(`${sel.chip} button`),
    ])
    expect(requestFilters(removal)).toEqual([])
  })

  it('a string filter is sent without an operator and narrows the rows', async () => {
    const opened = await openTable(page, 'Historic Fires', 'fire_extent_historic')
    const all = await apiRecords(page, server, new URL(opened.url()).pathname + '?limit=100&offset=0')
    const name = String(all.records[0]?.incident_name ?? '')
    const fragment = name.slice(0, Math.min(5, name.length)).toLowerCase()
    const request = await addFilter(page, 'fire_extent_historic', { field: 'incident_name', value: fragment })
    expect(requestFilters(request)).toEqual([{ field: 'incident_name', value: fragment }])
    const expected = await apiRecords(
      page,
      server,
      new URL(request.url()).pathname + new URL(request.url()).search,
    )
    await waitForIdle(page)
    const names = await columnTexts(page, 'incident_name')
    expect(names).toEqual(expected.records.map((r) => formatValue('titleCase', r.incident_name)))
    for (const n of names) expect(n.toLowerCase()).toContain(fragment)
  })

  it('page 2 requests offset 100', async () => {
    await openTable(page, 'Buildings', 'buildings')
    await waitForIdle(page)
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/buildings/records')),
      page.click(sel.next),
    ])
    const query = new URL(request.url()).searchParams
    expect(query.get('offset')).toBe('100')
    expect(query.get('limit')).toBe('100')
    await expect.poll(() => page.locator(sel.page).innerText()).toMatch(/^Page 2 of \d+$/)
  })

  it('zoom to fits the map to the feature and highlights it', async () => {
    await openTable(page, 'Buildings', 'buildings')
    await waitForIdle(page)
    const map = await page.locator('.leaflet-container').first().boundingBox()
    await page.locator(sel.zoomTo).first().click()
    const outline = page.locator(sel.highlight)
    await outline.waitFor({ state: 'visible' })
    await page.waitForTimeout(600) // Leaflet's zoom animation
    const box = await outline.boundingBox()
    expect(map && box).toBeTruthy()
    if (!map || !box) return
    const cx = box.x + box.width / 2
    const cy = box.y + box.height / 2
    expect(Math.abs(cx - (map.x + map.width / 2))).toBeLessThan(map.width * 0.1)
    expect(Math.abs(cy - (map.y + map.height / 2))).toBeLessThan(map.height * 0.1)
    expect(box.width).toBeLessThanOrEqual(map.width)
  })

  it('exports the filtered rows of the current table to CSV', async () => {
    await openTable(page, 'Buildings', 'buildings')
    await waitForIdle(page)
    await openTable(page, 'Historic Fires', 'fire_extent_historic')
    const request = await addFilter(page, 'fire_extent_historic', {
      field: 'acres',
      operator: 'gt',
      value: '10',
    })
    const expected = await apiRecords(
      page,
      server,
      new URL(request.url()).pathname + new URL(request.url()).search.replace(/limit=\d+/, 'limit=1000'),
    )
    await waitForIdle(page)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(sel.exportCsv)])
    expect(download.suggestedFilename()).toBe('fire_extent_historic.csv')
    const path = await download.path()
    const lines = readFileSync(path, 'utf8').trimEnd().split('\r\n')
    const header = lines[0]?.split(',') ?? []
    expect(header).toEqual(['acres', 'incident_name', 'agency_in_charge', 'fire_year'])
    expect(lines).toHaveLength(expected.total + 1)
    for (const line of lines.slice(1)) expect(Number(line.split(',')[0])).toBeGreaterThan(10)
  })

  it('a failed request shows an error toast and keeps the rows', async () => {
    await openTable(page, 'Historic Fires', 'fire_extent_historic')
    await waitForIdle(page)
    const before = await columnTexts(page, 'incident_name')
    expect(before.length).toBeGreaterThan(0)
    await page.route(/\/fire_extent_historic\/records\?filters=/, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":"unavailable","message":"try later"}',
      }),
    )
    try {
      await addFilter(page, 'fire_extent_historic', { field: 'acres', operator: 'lt', value: '5' })
      await expect
        .poll(() => page.locator('.bp6-toast').allInnerTexts())
        .toContainEqual(expect.stringContaining('Could not load Historic Fires: 503 try later'))
      await waitForIdle(page)
      expect(await columnTexts(page, 'incident_name')).toEqual(before)
    } finally {
      await page.unrouteAll()
    }
  })

  it('moves through the grid with the arrow keys', async () => {
    await openTable(page, 'Historic Fires', 'fire_extent_historic')
    await waitForIdle(page)
    await page.locator('.emberline-table-grid th[data-cell="-1:0"]').focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowRight')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-cell')))
      .toBe('1:1')
    await page.keyboard.press('Control+Home')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-cell')))
      .toBe('-1:0')
  })
})
