import type { Page } from 'playwright-core'
import { appConfig } from '../../src/shared/config'
import type { TestServer } from './support'

export const riskPath = '/DailyWildfireRisk'
export const seriesUrlPattern = `**/api/${appConfig.chart.dataPath}`

/** Selectors of the forecast panel (src/features/risk). */
export const riskSelectors = {
  panel: '.emberline-forecast-panel',
  chart: '[data-testid="forecast-chart"]',
  title: '.apexcharts-title-text',
  yAxisTitle: '.apexcharts-yaxis-title-text',
  band: '.apexcharts-yaxis-annotations rect',
  crossingLines: '.apexcharts-xaxis-annotations line.emberline-crossing-line',
  dayCard: '[data-testid="day-card"]',
} as const

/**
 * A known 72-hour series from midnight Mountain time on 5 March 2025: four crossings of 0.8
 * (up at hour 9, down at 19, up at 28 by touching 0.8 exactly, down at 29); daily maxima
 * 0.95 (High), 0.8 (High) and 0.45 (Medium).
 */
export function knownSeries(): { timestamp: string[]; risk_score_psps: number[] } {
  const start = Date.parse('2025-03-05T07:00:00Z')
  const timestamp = Array.from({ length: 72 }, (_, i) => new Date(start + i * 3_600_000).toISOString())
  const risk_score_psps = timestamp.map((_, i) => {
    if (i < 10) return 0.3 + i * 0.05 // 0.30 .. 0.75
    if (i < 20) return i === 15 ? 0.95 : 0.85
    if (i === 29) return 0.8
    if (i < 48) return 0.5
    return i === 60 ? 0.45 : 0.2
  })
  return { timestamp, risk_score_psps }
}

export const knownCrossings = 4

/** Answers the risk-score request with `body` (and counts the requests). */
export async function serveSeries(page: Page, body: unknown, status = 200): Promise<{ count(): number }> {
  let requests = 0
  await page.route(seriesUrlPattern, async (route) => {
    requests += 1
    await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) })
  })
  return { count: () => requests }
}

export async function openRiskView(page: Page, server: TestServer): Promise<void> {
  await page.goto(`${server.url}${riskPath}`)
  await page.waitForSelector(`${riskSelectors.panel}:not([data-status="idle"]):not([data-status="loading"])`)
}

/** What the chart drew: title, y-axis title, band rectangles and the crossing lines' attributes. */
export async function chartFacts(page: Page) {
  await page.waitForSelector(riskSelectors.title)
  const lines = await page.$$eval(riskSelectors.crossingLines, (nodes) =>
    nodes.map((n) => ({
      dash: n.getAttribute('stroke-dasharray'),
      width: n.getAttribute('stroke-width'),
      stroke: n.getAttribute('stroke'),
    })),
  )
  const bands = await page.$$eval(riskSelectors.band, (nodes) => nodes.map((n) => n.getAttribute('fill')))
  const bandBehindLine = await page.evaluate(() => {
    const band = document.querySelector('.apexcharts-yaxis-annotations')
    const line = document.querySelector('.apexcharts-line-series')
    return Boolean(band && line && band.compareDocumentPosition(line) & Node.DOCUMENT_POSITION_FOLLOWING)
  })
  const axisLabels = (group: string) =>
    page.$$eval(`${group} text > tspan`, (nodes) =>
      nodes.map((n) => (n.textContent ?? '').trim()).filter(Boolean),
    )
  return {
    xLabels: await axisLabels('.apexcharts-xaxis-texts-g'),
    yLabels: await axisLabels('.apexcharts-yaxis-texts-g'),
    bandBehindLine,
    title: await page.textContent(riskSelectors.title),
    yAxisTitle: await page.textContent(riskSelectors.yAxisTitle),
    bands,
    lines,
  }
}

/** The session token the app holds (SDK cookie), for calling the API like the app does. */
export async function sessionToken(page: Page): Promise<string> {
  const cookies = await page.context().cookies()
  const token = cookies.find((c) => c.name === appConfig.identity.cookies.session)?.value
  if (!token) throw new Error('not signed in: no session cookie')
  return decodeURIComponent(token)
}
