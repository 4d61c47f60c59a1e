import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig, layersConfig } from '../../src/shared/config'
import { api } from './operations.driver'
import { firstPictureBox, pdfPageCount, pdfPageRaster, pdfText, sampleColours, splitRows } from './pdf.driver'
import { closeSignedInPage, openSignedInPage, resultsDir, screenshot, type TestServer } from './support'

// The shift briefing printed by Chromium (page.pdf, the print stylesheet) and read back with
// poppler-utils: the map picture is not blank, every visible layer's legend and the alerts are in
// the text, no table row is split between pages, every page has the header and a page number.

interface AlertsBody {
  alerts: { id: string; hazard: { label: string }; nearestMiles: number }[]
}

const [lng, lat] = appConfig.map.demo.center
const LAYERS = ['psps', 'transmission_lines', 'viirs_thermal_hotspot', 'terrain_slope']
const VIEW = `c=${lng},${lat}&z=10&layers=${LAYERS.join(',')}&sub=psps:psps_wind_gusts`
const NOTES = 'Crew 4 staged at the Sandia substation until 18:00.'
const ORG = appConfig.identity.organizationName
const POLL = { timeout: 60_000, interval: 250 }

let server: TestServer
let browser: Browser
let page: Page
/** Requests the briefing made to anything but our server (it must work offline). */
const outside: string[] = []

/** Legend titles the sidebar shows for a layer in this view (the PSPS radio shows its chosen sub-layer). */
function legendTitles(layerId: string): string[] {
  const layer = layersConfig.layers.find((l) => l.id === layerId)!
  const mapLayers =
    layer.subLayerControl === 'radio'
      ? layer.layers.filter((m) => !layer.subLayers?.some((s) => s.mapLayer === m) || m === 'psps_wind_gusts')
      : layer.layers
  return mapLayers
    .map((m) => layersConfig.mapLayers.find((x) => x.id === m)?.legend)
    .map((id) => layersConfig.legends.find((g) => g.id === id)?.title)
    .filter((t): t is string => typeof t === 'string')
}

async function briefingReady(): Promise<void> {
  await page.waitForSelector('[data-testid="briefing-map"][data-status="ready"]', { timeout: 90_000 })
  await page.waitForSelector('[data-testid="briefing-alerts-table"] tbody tr', POLL)
  await page.waitForSelector('[data-testid="briefing-psps-table"] tbody tr', POLL)
  await page.waitForSelector('[data-testid="day-card"]', POLL)
  await page.waitForSelector('.el-briefing-times dd', POLL)
}

async function printPdf(format: 'Letter' | 'A4'): Promise<string> {
  mkdirSync(resultsDir, { recursive: true })
  const path = resolve(resultsDir, `briefing-${format}.pdf`)
  await page.pdf({ path, format, printBackground: true })
  return path
}

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage(`/Alerts?${VIEW}`))
  await page.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(server.url) || url.startsWith('data:') || url.startsWith('blob:'))
      return route.continue()
    outside.push(url)
    return route.abort()
  })
}, 180_000)

afterAll(() => closeSignedInPage({ server, browser }))

describe('/Briefing', () => {
  it('opens from an operations panel with the map view of its share URL', async () => {
    await page.goto(`${server.url}/Alerts?${VIEW}`)
    await page.click('.el-ops-nav .el-briefing-link')
    await page.waitForURL(/\/Briefing\?/)
    const url = new URL(page.url())
    expect(url.searchParams.get('layers')?.split(',').sort()).toEqual([...LAYERS].sort())
    expect(url.searchParams.getAll('sub')).toEqual(['psps:psps_wind_gusts'])
    await briefingReady()
    await page.fill('textarea[aria-label="Operator notes"]', NOTES)
    await screenshot(page, 'briefing-screen')
  })

  it('is in the overflow menu and keeps the view; its path is case-insensitive', async () => {
    await page.goto(`${server.url}/alerts?${VIEW}`)
    await page.click('button[aria-label="More options"]')
    await page.locator('.bp6-popover .bp6-menu-item', { hasText: 'Shift Briefing' }).click()
    await page.waitForURL(/\/Briefing\?/)
    expect(new URL(page.url()).searchParams.get('layers')?.split(',').sort()).toEqual([...LAYERS].sort())
    await page.goto(`${server.url}/bRiEfInG?${VIEW}`)
    await briefingReady()
    // The notes typed before are kept in this browser.
    expect(await page.inputValue('textarea[aria-label="Operator notes"]')).toBe(NOTES)
  })

  for (const format of ['Letter', 'A4'] as const) {
    describe(`printed on ${format}`, () => {
      let pdf = ''
      let pages: string[] = []

      beforeAll(async () => {
        await page.goto(`${server.url}/Briefing?${VIEW}`)
        await briefingReady()
        // Offline from here on: everything printed is already in the page.
        await page.context().setOffline(true)
        pdf = await printPdf(format)
        await page.context().setOffline(false)
        pages = Array.from({ length: pdfPageCount(pdf) }, (_, i) => pdfText(pdf, i + 1))
      }, 180_000)

      it('draws the map: the picture on page 1 is not blank', () => {
        const raster = pdfPageRaster(pdf, 1, 50)
        const box = firstPictureBox(raster)
        expect(box).not.toBeNull()
        const [x0, y0, x1, y1] = box!
        expect(x1 - x0).toBeGreaterThan(raster.width * 0.6)
        expect(y1 - y0).toBeGreaterThan(raster.height * 0.15)
        const colours = sampleColours(raster, box!)
        const counts = new Map<number, number>()
        for (const c of colours) counts.set(c, (counts.get(c) ?? 0) + 1)
        expect(counts.size).toBeGreaterThan(20)
        expect(Math.max(...counts.values()) / colours.length).toBeLessThan(0.8)
      })

      it("prints each visible layer's name and legend titles, and its data times", () => {
        const text = pages.join('\n')
        for (const id of LAYERS) {
          const layer = layersConfig.layers.find((l) => l.id === id)!
          expect(text, id).toContain(layer.name)
          for (const title of legendTitles(id)) expect(text, `${id}: ${title}`).toContain(title)
        }
        expect(legendTitles('psps')).toContain('Wind Gusts')
        const flat = text.replace(/\s+/g, ' ')
        expect(flat).toMatch(/Valid time [^·]*\(forecast hour \d+ of \d+\)/)
        expect(flat).toMatch(/Valid time newest data /)
        expect(flat).toContain('features, updated')
      })

      it('prints the forecast, every open alert (hazard, distance), the PSPS totals and the notes', async () => {
        const body = await api<AlertsBody>(page, server, '/api/alerts')
        const flat = pdfText(pdf).replace(/\s+/g, ' ')
        expect(flat).toContain(`Open alerts (${body.alerts.length})`)
        const raw = pages.join('\n')
        for (const [i, a] of body.alerts.entries()) {
          // Row number, then its nearest distance on the same printed line or a following one.
          expect(raw, a.id).toMatch(new RegExp(`^\\s*${i + 1}\\s+\\S`, 'm'))
          expect(raw, a.id).toContain(a.nearestMiles.toFixed(2))
        }
        for (const word of new Set(body.alerts.flatMap((a) => a.hazard.label.split(/\s+/))))
          expect(flat).toContain(word)
        expect(flat).toContain(appConfig.chart.title) // the forecast chart…
        expect(flat).toContain(appConfig.formatting.todayLabel) // …and its day cards
        expect(flat).toContain('Next PSPS event')
        expect(flat).toMatch(/ Total /)
        expect(flat).toContain(NOTES)
      })

      it('never splits a table row across pages; headers repeat', () => {
        expect(pages.length).toBeGreaterThan(2)
        const alertHeader = /^\s*#\s+Severity\s+Rule\s+Hazard/
        expect(pages.filter((p) => p.split('\n').some((l) => alertHeader.test(l))).length).toBeGreaterThan(1)
        expect(splitRows(pages, alertHeader, /^\s*\d+\s+\S/)).toEqual([])
      })

      it('has the organization, the time and the page number on every page', () => {
        pages.forEach((text, i) => {
          expect(text, `page ${i + 1}`).toContain(`${ORG} · Shift briefing`)
          expect(text, `page ${i + 1}`).toContain(`Page ${i + 1} of ${pages.length}`)
          expect(text, `page ${i + 1}`).toMatch(/\d{1,2}:\d{2}\s?[AP]M/)
        })
      })
    })
  }

  it('is protected: without a session it leads to the sign-in page', async () => {
    const context = await browser.newContext()
    try {
      const anonymous = await context.newPage()
      await anonymous.goto(`${server.url}/Briefing?${VIEW}`)
      await anonymous.waitForURL(/\/login\/Authenticate\?next=%2FBriefing/i)
    } finally {
      await context.close()
    }
  })

  it('made no request outside the server (works offline, demo included)', () => {
    expect(outside).toEqual([])
  })
})
