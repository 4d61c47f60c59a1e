import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig } from '../../src/shared/config'
import { findCrossings } from '../../src/shared/risk'
import {
  chartFacts,
  knownCrossings,
  knownSeries,
  openRiskView,
  riskSelectors as sel,
  serveSeries,
  sessionToken,
} from './risk.driver'
import { newPage, screenshot, type TestServer, openSignedInPage, closeSignedInPage } from './support'

let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage('/DailyWildfireRisk'))
})

afterAll(() => closeSignedInPage({ server, browser }))

async function freshPage(): Promise<Page> {
  // Same signed-in context, a new page: the risk store is per page load.
  return newPage(browser, { context: page.context(), width: 1440, height: 900 })
}

describe('Daily Wildfire Risk', () => {
  it('draws the chart with its title, axis title, band and one dashed line per crossing', async () => {
    const tab = await freshPage()
    const requests = await serveSeries(tab, { records: [knownSeries()] })
    await openRiskView(tab, server)
    const facts = await chartFacts(tab)
    expect(facts.title).toBe('Forecasted Fire Risk Score')
    expect(facts.yAxisTitle).toBe('Max Risk Score Across Mesa HFA')
    expect(facts.bands).toEqual([appConfig.chart.band.color])
    expect(facts.bandBehindLine).toBe(true)
    expect(facts.yLabels).toEqual(['1.0', '0.8', '0.6', '0.4', '0.2', '0.0'])
    expect(facts.xLabels.length).toBeGreaterThan(1)
    expect(facts.xLabels.length).toBeLessThanOrEqual(appConfig.chart.xAxis.tickAmount)
    expect(facts.lines).toHaveLength(knownCrossings)
    for (const line of facts.lines) {
      expect(line).toEqual({ dash: '5', width: '1', stroke: 'rgba(255, 255, 255, 0.502)' })
    }
    expect(await tab.isVisible('.apexcharts-legend')).toBe(false)
    expect(requests.count()).toBe(1)
    await screenshot(tab, 'risk-known-series')
    await tab.close()
  })

  it("shows one card per Mountain-time day with 'Today' for the reference date", async () => {
    const tab = await freshPage()
    await serveSeries(tab, { records: [knownSeries()] })
    await openRiskView(tab, server)
    const cards = await tab.$$eval(sel.dayCard, (nodes) =>
      nodes.map((n) => ({ day: n.getAttribute('data-day'), text: (n.textContent ?? '').trim() })),
    )
    expect(cards).toEqual([
      { day: '2025-03-05', text: 'Today0.95High' },
      { day: '2025-03-06', text: 'Thu, Mar 60.80High' },
      { day: '2025-03-07', text: 'Fri, Mar 70.45Medium' },
    ])
    await tab.close()
  })

  it('only logs a failed fetch: no chart, no message (spec §8)', async () => {
    const tab = await freshPage()
    const errors: string[] = []
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await serveSeries(tab, { error: 'unavailable' }, 503)
    await openRiskView(tab, server)
    await tab.waitForSelector(`${sel.panel}[data-status="failed"]`)
    expect(await tab.$$(sel.chart)).toHaveLength(0)
    expect(await tab.textContent(sel.panel)).not.toContain(appConfig.chart.noData ?? 'No data')
    expect(await tab.$$(`${sel.panel} .bp6-non-ideal-state`)).toHaveLength(0)
    expect(errors.some((e) => e.includes('Failed to fetch the PSPS risk score'))).toBe(true)
    await tab.close()
  })

  it("marks every crossing of the server's demo series", async () => {
    const tab = await freshPage()
    const seriesRequest = tab.waitForResponse((r) => r.url().includes(`/api/${appConfig.chart.dataPath}`))
    await openRiskView(tab, server)
    expect((await seriesRequest).request().headers()['authorization']).toMatch(/^Bearer .+/)
    const response = await fetch(`${server.url}/api/${appConfig.chart.dataPath}`, {
      headers: { authorization: `Bearer ${await sessionToken(tab)}` },
    })
    const body = (await response.json()) as { records: { risk_score_psps: number[] }[] }
    const expected = findCrossings(body.records[0]?.risk_score_psps ?? [], appConfig.chart.threshold).length
    expect(expected).toBeGreaterThan(0)
    expect((await chartFacts(tab)).lines).toHaveLength(expected)
    expect(await tab.textContent(`${sel.dayCard} >> nth=0`)).toContain(appConfig.formatting.todayLabel)
    await screenshot(tab, 'risk-demo-series')
    await tab.close()
  })
})
