import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { layersConfig, operationsConfig } from '../../src/shared/config'
import { api, columnTexts, opsSelectors as sel, shownNumber } from './operations.driver'
import { screenshot, type TestServer, openSignedInPage, closeSignedInPage } from './support'

interface EventBody {
  rows: { id: number; key: string; values: Record<string, string | number | null> }[]
  totals: Record<string, number>
  count: number
}

const settings = operationsConfig.psps!
/** Tile path of the vector source drawing a dataset (no demoPath for the PSPS lines). */
const tileSource = (dataset: string) =>
  layersConfig.sources.flatMap((s) => (s.type === 'mvt' && s.dataset === dataset ? [s.path] : []))[0]!
const summed = settings.columns.filter((c) => c.total === 'sum')
const keyField = settings.columns[0]!.field
/** The machine is shared: answers can take a few seconds. */
const POLL = { timeout: 20_000, interval: 200 }
let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage('/PSPS'))
})

afterAll(() => closeSignedInPage({ server, browser }))

async function openPsps(): Promise<void> {
  await page.goto(`${server.url}/PSPS`)
  try {
    await page.waitForSelector(sel.pspsRows)
  } catch (error) {
    await screenshot(page, 'psps-open-failed')
    throw error
  }
}

describe('/PSPS', () => {
  it('shows every circuit of the event, and the totals equal the sum of the rows shown', async () => {
    await openPsps()
    const body = await api<EventBody>(page, server, '/api/psps/event')
    expect(await page.$$(sel.pspsRows)).toHaveLength(body.count)
    expect(summed.length).toBeGreaterThan(0)
    for (const c of summed) {
      const shown = (await columnTexts(page, sel.pspsRows, c.field)).map(shownNumber)
      const [total] = (await columnTexts(page, sel.pspsFooter, c.field)).map(shownNumber)
      expect(
        shown.reduce((a, b) => a + b, 0),
        c.field,
      ).toBeCloseTo(total!, 6)
      expect(total).toBeCloseTo(body.totals[c.field]!, 6)
    }
    expect((await columnTexts(page, sel.pspsFooter, keyField))[0]).toBe('Total')
    await screenshot(page, 'psps-event')
  })

  it('sorts by a clicked header, ascending then descending', async () => {
    await openPsps()
    const field = summed[0]!.field
    const [asc] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(`/api/psps/event?sort=${field}`)),
      page.click(sel.pspsHeader(field)),
    ])
    expect(asc).toBeTruthy()
    await expect
      .poll(async () => page.getAttribute(`.el-psps-table th[data-field="${field}"]`, 'aria-sort'), POLL)
      .toBe('ascending')
    await expect.poll(async () => page.getAttribute('.el-psps-panel', 'aria-busy'), POLL).toBe('false')
    const up = (await columnTexts(page, sel.pspsRows, field)).map(shownNumber)
    expect(up).toEqual([...up].sort((a, b) => a - b))
    await page.click(sel.pspsHeader(field))
    await expect
      .poll(async () => page.getAttribute(`.el-psps-table th[data-field="${field}"]`, 'aria-sort'), POLL)
      .toBe('descending')
    await expect.poll(async () => page.getAttribute('.el-psps-panel', 'aria-busy'), POLL).toBe('false')
    const down = (await columnTexts(page, sel.pspsRows, field)).map(shownNumber)
    expect(down).toEqual([...up].sort((a, b) => b - a))
  })

  it('exports a CSV with exactly the rows shown (in order) and the totals', async () => {
    await openPsps()
    const field = summed[0]!.field
    await page.click(sel.pspsHeader(field))
    await page.click(sel.pspsHeader(field))
    await expect
      .poll(async () => page.getAttribute(`.el-psps-table th[data-field="${field}"]`, 'aria-sort'), POLL)
      .toBe('descending')
    await expect.poll(async () => page.getAttribute('.el-psps-panel', 'aria-busy'), POLL).toBe('false')
    const keys = await columnTexts(page, sel.pspsRows, keyField)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(sel.pspsExport)])
    expect(download.suggestedFilename()).toBe('psps-event.csv')
    const lines = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe(settings.columns.map((c) => c.label).join(','))
    expect(lines).toHaveLength(keys.length + 2)
    expect(lines.slice(1, -1).map((l) => l.split(',')[0])).toEqual(keys)
    const totalLine = lines.at(-1)!.split(',')
    for (const c of summed) {
      const i = settings.columns.indexOf(c)
      const [shown] = (await columnTexts(page, sel.pspsFooter, c.field)).map(shownNumber)
      expect(Number(totalLine[i])).toBeCloseTo(shown!, 6)
    }
  })

  it('switches the PSPS layers on even when the link turned them off', async () => {
    const lines = tileSource(settings.dataset)
    const [tile] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(`/api/tiles/${lines}/mvt/`)),
      page.goto(`${server.url}/PSPS?layers=transmission_lines`),
    ])
    expect(tile.url()).toContain(lines)
    await page.waitForSelector(sel.pspsRows)
    await expect
      .poll(() => new URL(page.url()).searchParams.get('layers')?.split(','), POLL)
      .toContain('psps')
  })

  it('selecting a row highlights that circuit on the map', async () => {
    await openPsps()
    expect(await page.$$(`${sel.highlightPane} path`)).toHaveLength(0)
    const row = page.locator(sel.pspsRows).nth(1)
    const id = await row.getAttribute('data-key')
    const [geometry] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/psps/event/${id}/geometry`)),
      row.click(),
    ])
    expect(geometry.status()).toBe(200)
    await page.waitForSelector(`${sel.highlightPane} path`)
    expect(await row.getAttribute('aria-selected')).toBe('true')
    await screenshot(page, 'psps-highlight')
    await row.click()
    await page.waitForSelector(`${sel.highlightPane} path`, { state: 'detached' })
  })
})
