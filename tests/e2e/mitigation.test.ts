import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsConfig } from '../../src/shared/config'
import { type TestServer, openSignedInPage, closeSignedInPage } from './support'
import { sessionToken } from './tables.driver'

const PATH = '/MitigationAnalysis'
const factors = operationsConfig.mitigation?.consequence ?? []
const sel = {
  panel: '.el-mitigation-panel',
  ready: '.el-mitigation-panel[data-status="ready"]',
  rows: '[data-testid="mitigation-table"] tbody tr',
  row: (key: string) => `[data-testid="mitigation-table"] tbody tr[data-key="${key}"]`,
  weight: (id: string) => `.el-mitigation-weights input[data-factor="${id}"]`,
  chart: '[data-testid="mitigation-chart"]',
  bars: '[data-testid="mitigation-chart"] .apexcharts-bar-area',
  highlight: 'path.el-mitigation-highlight',
  reset: 'button:has-text("Reset to defaults")',
}

interface Ranking {
  rows: { id: number; key: string; rank: number }[]
  chartTop: number | null
}

let server: TestServer
let browser: Browser
let page: Page

/** The ranking the API gives for these weights (none: the config defaults). */
async function apiRanking(weights?: Record<string, number>): Promise<Ranking> {
  const query = weights
    ? '?' +
      Object.entries(weights)
        .map(([id, w]) => `weight.${id}=${w}`)
        .join('&')
    : ''
  const res = await fetch(`${server.url}/api/mitigation${query}`, {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  })
  if (!res.ok) throw new Error(`/api/mitigation${query}: ${res.status} ${await res.text()}`)
  return (await res.json()) as Ranking
}

/** The circuit keys in the table's order once the panel shows the ranking for the weights typed. */
async function tableKeys(): Promise<string[]> {
  await page.waitForSelector(sel.ready)
  return page.$$eval(sel.rows, (rows) => rows.map((r) => r.getAttribute('data-key') ?? ''))
}

/** Types the weights into the inputs: the ones above 0 first, so the set is never all 0. */
async function setWeights(weights: Record<string, number>): Promise<void> {
  const entries = Object.entries(weights).sort(([, a], [, b]) => b - a)
  for (const [id, w] of entries) await page.fill(sel.weight(id), String(w))
}

/** Weights that put one factor alone in charge and change the top circuit (the API decides which). */
async function dominatingWeights(defaultTop: string): Promise<Record<string, number>> {
  for (const f of factors) {
    const weights = Object.fromEntries(factors.map((g) => [g.id, g.id === f.id ? 1 : 0]))
    if ((await apiRanking(weights)).rows[0]?.key !== defaultTop) return weights
  }
  throw new Error('no single factor changes the top circuit')
}

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage(PATH, { width: 1440, height: 1000 }))
})

afterAll(() => closeSignedInPage({ server, browser }))

describe('Mitigation Analysis', () => {
  it('shows the API ranking for the default weights, with the chart drawn', async () => {
    await page.goto(`${server.url}${PATH}`)
    const api = await apiRanking()
    expect(await tableKeys()).toEqual(api.rows.map((r) => r.key))
    for (const f of factors) expect(await page.inputValue(sel.weight(f.id))).toBe(String(f.weight))
    const top = api.rows.slice(0, api.chartTop ?? 15).map((r) => r.key)
    await expect.poll(() => page.getAttribute(sel.chart, 'data-keys')).toBe(top.join(','))
    await expect.poll(() => page.locator(sel.bars).count()).toBeGreaterThan(0)
  })

  it('follows changed weights: another factor dominates and the order becomes the API’s for those weights', async () => {
    await page.goto(`${server.url}${PATH}`)
    const before = await tableKeys()
    const weights = await dominatingWeights(before[0] as string)
    const expected = (await apiRanking(weights)).rows.map((r) => r.key)
    const requested = page.waitForRequest((r) =>
      Object.entries(weights).every(
        ([id, w]) => new URL(r.url()).searchParams.get(`weight.${id}`) === String(w),
      ),
    )
    await setWeights(weights)
    await requested
    await expect.poll(tableKeys).toEqual(expected)
    expect(expected[0]).not.toBe(before[0])
    await expect.poll(() => page.getAttribute(sel.chart, 'data-keys')).toMatch(new RegExp(`^${expected[0]},`))
    await expect.poll(() => page.locator(sel.bars).count()).toBeGreaterThan(0)

    await page.click(sel.reset)
    await expect.poll(tableKeys).toEqual(before)
    for (const f of factors) expect(await page.inputValue(sel.weight(f.id))).toBe(String(f.weight))
  })

  it('all weights 0: the server refuses and the panel says why, keeping the last ranking', async () => {
    await page.goto(`${server.url}${PATH}`)
    const before = await tableKeys()
    for (const f of factors) await page.fill(sel.weight(f.id), '0')
    await page.waitForSelector('.el-mitigation-panel[data-status="error"]')
    expect(await page.textContent(sel.panel)).toContain('at least one weight must be above 0')
    expect(await page.$$eval(sel.rows, (rows) => rows.map((r) => r.getAttribute('data-key')))).toEqual(before)
  })

  it('selecting a circuit highlights it on the map', async () => {
    await page.goto(`${server.url}${PATH}`)
    const [first] = await tableKeys()
    await page.click(sel.row(first as string))
    expect(await page.getAttribute(sel.row(first as string), 'aria-selected')).toBe('true')
    await page.waitForSelector(sel.highlight, { state: 'attached' })
    expect(await page.locator(sel.highlight).count()).toBe(1)
  })
})
