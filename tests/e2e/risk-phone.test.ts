import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { knownSeries, openRiskView, riskSelectors, serveSeries } from './risk.driver'
import { closeSignedInPage, newPage, openSignedInPage, screenshot, type TestServer } from './support'

// The forecast chart on a phone (issue #29 item 5): its hour labels must stay apart at 390 px.
let server: TestServer
let browser: Browser
let page: Page

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage('/DailyWildfireRisk', { width: 390, height: 844 }))
})

afterAll(() => closeSignedInPage({ server, browser }))

interface LabelBox {
  readonly text: string
  readonly left: number
  readonly right: number
  readonly top: number
  readonly bottom: number
}

/** The x-axis labels ApexCharts drew (non-empty ones), with their boxes on the page. */
async function xAxisLabelBoxes(tab: Page): Promise<LabelBox[]> {
  await tab.waitForSelector(`${riskSelectors.chart} .apexcharts-xaxis-texts-g text > tspan`)
  return tab.$$eval(`${riskSelectors.chart} .apexcharts-xaxis-texts-g text > tspan`, (nodes) =>
    nodes
      .map((n) => {
        const r = n.getBoundingClientRect()
        return {
          text: (n.textContent ?? '').trim(),
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
        }
      })
      .filter((b) => b.text !== ''),
  )
}

function overlapping(boxes: readonly LabelBox[]): [string, string][] {
  const pairs: [string, string][] = []
  boxes.forEach((a, i) => {
    for (const b of boxes.slice(i + 1)) {
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top
      if (!apart) pairs.push([a.text, b.text])
    }
  })
  return pairs
}

describe('forecast chart at 390 px', () => {
  it('draws its x-axis labels without overlapping, inside the chart', async () => {
    const tab = await newPage(browser, { context: page.context(), width: 390, height: 844 })
    await serveSeries(tab, { records: [knownSeries()] })
    await openRiskView(tab, server)
    const boxes = await xAxisLabelBoxes(tab)
    await screenshot(tab, 'risk-phone-390')
    expect(boxes.length).toBeGreaterThan(1)
    expect(overlapping(boxes)).toEqual([])
    const chart = await tab.locator(riskSelectors.chart).boundingBox()
    for (const box of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(Math.floor(chart?.x ?? 0))
      expect(box.right).toBeLessThanOrEqual(Math.ceil((chart?.x ?? 0) + (chart?.width ?? 0)))
    }
    await tab.close()
  })
})
