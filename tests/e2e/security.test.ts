import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeSignedInPage, launchBrowser, newPage, sharedServer, signIn, type SignedInPage } from './support'
import { openRiskView, riskSelectors } from './risk.driver'
import { openTable, tableSelectors } from './tables.driver'
import { waitForMap } from './map.driver'

// The Content-Security-Policy is as tight as the app allows: this journey walks through everything
// the app loads (sign-in through the Stytch SDK, basemap and data tiles, raster tiles, the wind
// particle worker, the forecast chart, an attribute table, the mitigation chart) in a real browser
// and asserts that the browser refused nothing.
let opened: Partial<SignedInPage> = {}
let page: Page
const violations: string[] = []

async function recordViolations(p: Page): Promise<void> {
  await p.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const list = ((window as unknown as { __csp?: string[] }).__csp ??= [])
      list.push(`${e.violatedDirective} ${e.blockedURI}`)
    })
  })
  p.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
  })
}

async function pageViolations(p: Page): Promise<string[]> {
  return p.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])
}

beforeAll(async () => {
  const server = await sharedServer()
  const browser = await launchBrowser()
  opened = { server, browser }
  page = await newPage(browser, { width: 1440, height: 900 })
  await recordViolations(page)
  await signIn(page, server, { path: '/DailyWildfireRisk' })
  opened.page = page
})

afterAll(async () => {
  await closeSignedInPage(opened)
})

describe('Content-Security-Policy in the browser', () => {
  it('is sent with the page', async () => {
    const res = await page.request.get(`${opened.server?.url}/DailyWildfireRisk`)
    expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  })

  it('refuses nothing the app loads: sign-in, map, chart, wind particles, tables, mitigation', async () => {
    const server = opened.server
    if (!server) throw new Error('no server')
    await openRiskView(page, server)
    await page.waitForSelector(riskSelectors.title)
    await waitForMap(page)
    expect(await pageViolations(page)).toEqual([])

    await page.goto(`${server.url}/PSPS?layers=wind_vectors&c=-106.2,34.6&z=7`)
    await waitForMap(page)
    await page.waitForSelector('canvas.el-wind-particles', { timeout: 30_000 })
    await page.waitForTimeout(1500)
    expect(await pageViolations(page)).toEqual([])

    await page.goto(`${server.url}/PSPS`)
    await waitForMap(page)
    await page.waitForSelector(tableSelectors.openTable('Active Fires'), { state: 'attached' })
    await openTable(page, 'Active Fires', 'fire_extent_active')
    await page.waitForSelector(tableSelectors.rows)
    expect(await pageViolations(page)).toEqual([])

    await page.goto(`${server.url}/MitigationAnalysis`)
    await waitForMap(page)
    await page.waitForSelector('.apexcharts-canvas', { timeout: 30_000 })
    expect(await pageViolations(page)).toEqual([])
    expect(violations).toEqual([])
  })

  it('keeps the app out of frames', async () => {
    const browser = opened.browser
    const server = opened.server
    if (!browser || !server) throw new Error('not opened')
    const framer = await newPage(browser)
    let blocked = false
    framer.on('console', (m) => {
      if (/frame-ancestors/i.test(m.text())) blocked = true
    })
    await framer.setContent(`<iframe src="${server.url}/login/Authenticate"></iframe>`)
    await framer.waitForTimeout(1500)
    const framed = framer.frames().find((f) => f.url().startsWith(server.url))
    const loaded = framed ? await framed.evaluate(() => document.title).catch(() => '') : ''
    expect(loaded).not.toBe('Emberline')
    expect(blocked).toBe(true)
    await framer.context().close()
  })
})
