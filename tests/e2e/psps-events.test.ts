import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeFindings, failing, newAxePage, runAxe } from './a11y.driver'
import { api, sessionToken } from './operations.driver'
import { firstPictureBox, pdfPageCount, pdfPageRaster, pdfText } from './pdf.driver'
import { launchBrowser, resultsDir, screenshot, sharedServer, signIn, type TestServer } from './support'

// Issue #33, the app half: a PSPS event created from the forecast, a circuit de-energized and
// restored through its page, the replay slider, and the post-event report printed by Chromium
// (page.pdf) and read back with pdftotext.

interface EventBody {
  id: number
  name: string
  circuits: { circuit: string; periods: unknown[] }[]
}
interface ReportBody {
  columns: { field: string; title: string; kind: string }[]
  rows: { circuit: string; period: number; values: Record<string, string | number | null> }[]
  totals: Record<string, number | null>
}

const NAME = 'Santa Ana wind event (e2e)'
const POLL = { timeout: 30_000, interval: 200 }
const MINUTE = 60_000
const sel = {
  circuitRows: '.el-psps-circuits tbody tr',
  row: (c: string) => `.el-psps-circuits tr[data-circuit="${c}"]`,
  timeline: (kind: string) => `.el-psps-timeline li[data-kind="${kind}"]`,
  count: '.el-psps-replay-count',
  error: '.el-psps-error',
  mapPaths: (state: string) => `.leaflet-el-ops-highlight-pane path.el-psps-circuit-${state}`,
}

let server: TestServer
let browser: Browser
let page: Page
let eventId = 0

/** PATCH an API path with the browser's session (steps recorded beside the UI, for a long report). */
async function patch(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${await sessionToken(page)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
}

/** A moment `minutesAgo` before now as the browser's datetime-local value (its own time zone). */
const localInput = (minutesAgo: number) =>
  page.evaluate((ago) => {
    const d = new Date(Date.now() - ago * 60_000)
    const p = (n: number) => String(n).padStart(2, '0')
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
  }, minutesAgo)

async function recordAt(minutesAgo: number, button: string): Promise<void> {
  await page.fill('.el-psps-step input[type="datetime-local"]', await localInput(minutesAgo))
  await page.click(`.el-psps-step button:has-text("${button}")`)
}

const offCount = async () => Number(await page.getAttribute(sel.count, 'data-off'))

async function expectAxeClean(where: string): Promise<void> {
  const bad = failing(await runAxe(page))
  expect(bad.length, describeFindings(where, bad)).toBe(0)
}

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
  // A context that lets axe-core be injected (the app's CSP forbids inline scripts).
  page = await newAxePage(browser, { width: 1440, height: 900 })
  await signIn(page, server, { path: '/PSPS?tab=events' })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('PSPS events', () => {
  it('creates an event from the forecast and opens its page, circuits coloured on the map', async () => {
    await page.waitForSelector('.el-psps-events')
    await page.fill('#el-psps-new-event-name', NAME)
    await page.click('button:has-text("New event from forecast")')
    await page.waitForSelector(`.el-psps-event-name:has-text("${NAME}")`)
    eventId = Number(new URL(page.url()).searchParams.get('event'))
    expect(eventId).toBeGreaterThan(0)
    const body = await api<EventBody>(page, server, `/api/psps/events/${eventId}`)
    expect(body.circuits.length).toBeGreaterThan(1)
    expect(await page.$$(sel.circuitRows)).toHaveLength(body.circuits.length)
    await expect.poll(async () => (await page.$$(sel.mapPaths('on'))).length, POLL).toBe(body.circuits.length)
    expect(await offCount()).toBe(0)
    await expectAxeClean('event page')
  })

  it('records a de-energization then a restoration; state, timeline and map follow', async () => {
    const { circuits } = await api<EventBody>(page, server, `/api/psps/events/${eventId}`)
    const circuit = circuits[0]!.circuit
    await page.click(`button[aria-label="Record a step on circuit ${circuit}"]`)
    await recordAt(30, 'De-energize')
    await page.waitForSelector(`${sel.row(circuit)}[data-state="off"]`, POLL)
    await page.waitForSelector(sel.timeline('deenergized'))
    await expect.poll(async () => (await page.$$(sel.mapPaths('off'))).length, POLL).toBe(1)
    expect(await offCount()).toBe(1)

    await recordAt(10, 'Restore')
    await page.waitForSelector(`${sel.row(circuit)}[data-state="restored"]`, POLL)
    await page.waitForSelector(sel.timeline('restored'))
    await expect.poll(async () => (await page.$$(sel.mapPaths('restored'))).length, POLL).toBe(1)
    expect(await offCount()).toBe(0)

    // A de-energization before the previous restoration: the API's 400, shown on the page.
    await recordAt(20, 'De-energize')
    await page.waitForSelector(sel.error, POLL)
    expect(await page.textContent(sel.error)).toMatch(/deenergizedAt/)
    await screenshot(page, 'psps-event-page')
  })

  it('replays the event: the slider moves the count of circuits off and the map', async () => {
    const handle = page.locator('[aria-label="Replay time"]')
    const track = await page.locator('.el-psps-replay-slider .bp6-slider').boundingBox()
    expect(track).not.toBeNull()
    // The range runs from the de-energization (30 min ago) to the restoration (10 min ago).
    await page.mouse.click(track!.x + track!.width / 2, track!.y + track!.height / 2)
    await expect.poll(offCount, POLL).toBe(1)
    await expect.poll(async () => (await page.$$(sel.mapPaths('off'))).length, POLL).toBe(1)
    // By keyboard: one minute a step, to the end (all back on) and to the start (the switching off).
    await handle.focus()
    for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowRight')
    await expect.poll(offCount, POLL).toBe(0)
    for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowLeft')
    await expect.poll(offCount, POLL).toBe(1)
    await page.click('.el-psps-replay button:has-text("Now")')
    await expect.poll(offCount, POLL).toBe(0)
  })

  describe('the printable post-event report', () => {
    let report: ReportBody
    let pages: string[] = []
    let pdf = ''

    beforeAll(async () => {
      // Every other circuit switched off and on, and one off twice: a report of several pages.
      const { circuits } = await api<EventBody>(page, server, `/api/psps/events/${eventId}`)
      const base = `/api/psps/events/${eventId}/circuits`
      const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * MINUTE).toISOString()
      await Promise.all(
        circuits.slice(1).map(async (c) => {
          await patch(`${base}/${encodeURIComponent(c.circuit)}`, { deenergizedAt: at(120) })
          await patch(`${base}/${encodeURIComponent(c.circuit)}`, { restoredAt: at(60) })
        }),
      )
      const again = circuits[1]!.circuit
      await patch(`${base}/${encodeURIComponent(again)}`, { deenergizedAt: at(50) })
      report = await api<ReportBody>(page, server, `/api/psps/events/${eventId}/report`)

      // Still on the event page: the report screen (an in-app navigation, no reload) reads the
      // report afresh, with the steps just recorded through the API.
      await page.click('button:has-text("Post-event report")')
      await page.waitForSelector('[data-testid="psps-report-table"] tbody tr', POLL)
      await page.waitForSelector('[data-testid="briefing-map"][data-status="ready"]', { timeout: 90_000 })
      await expectAxeClean('report page')
      await screenshot(page, 'psps-report-screen')
      mkdirSync(resultsDir, { recursive: true })
      pdf = resolve(resultsDir, 'psps-report.pdf')
      await page.pdf({ path: pdf, format: 'Letter', landscape: true, printBackground: true })
      pages = Array.from({ length: pdfPageCount(pdf) }, (_, i) => pdfText(pdf, i + 1))
    }, 180_000)

    it('prints the map picture with the de-energized circuits drawn on it', () => {
      const raster = pdfPageRaster(pdf, 1, 50)
      const box = firstPictureBox(raster)
      expect(box).not.toBeNull()
      const [x0, y0, x1, y1] = box!
      // The circuits' colour (theme danger, #e76a6e): red well above green and blue.
      let red = 0
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) {
          const i = (y * raster.width + x) * 3
          const [r, g, b] = [raster.data[i]!, raster.data[i + 1]!, raster.data[i + 2]!]
          if (r > 180 && r - g > 70 && r - b > 70) red++
        }
      expect(red).toBeGreaterThan(20)
    })

    it('prints the totals and every circuit row', () => {
      const flat = pages.join('\n').replace(/\s+/g, ' ')
      expect(flat).toContain(NAME)
      expect(flat).toContain('Totals')
      const customers = report.columns.find((c) => c.field === 'customersTotal')!
      expect(flat).toContain(customers.title.split(' ')[0]!)
      expect(flat).toMatch(new RegExp(`${customers.title} ${report.totals.customersTotal}\\b`))
      expect(flat).toContain(`De-energizations ${report.rows.length}`)
      const raw = pages.join('\n')
      for (const r of report.rows) {
        const starts = raw.split('\n').filter((l) => l.trimStart().startsWith(`${r.circuit} `)).length
        const periods = report.rows.filter((x) => x.circuit === r.circuit).length
        expect(starts, r.circuit).toBeGreaterThanOrEqual(periods)
      }
    })

    it('never splits a row across pages and repeats the table header', () => {
      // The header's first printed line starts with the first column's title (its first word).
      const c0 = report.columns[0]!.title.split(' ')[0]!
      const header = (l: string) => new RegExp(`^\\s*${c0}\\b`).test(l)
      const keys = [...new Set(report.rows.map((r) => r.circuit))]
      const startsRow = (l: string) =>
        keys.some((k) => l.trimStart().startsWith(`${k} `)) || /^\s*Total\b/.test(l)
      // Each page's lines from the header to its first row: the header alone, unless a row began on
      // the page before and continues here.
      const blocks = pages.flatMap((text, i) => {
        const lines = text.split('\n').filter((l) => l.trim() !== '')
        const at = lines.findIndex(header)
        if (at < 0) return []
        const end = lines.findIndex((l, j) => j > at && startsRow(l))
        return [{ page: i + 1, block: lines.slice(at, end < 0 ? undefined : end).map((l) => l.trimEnd()) }]
      })
      expect(blocks.length).toBeGreaterThan(1)
      const [first] = blocks
      for (const b of blocks) expect(b.block, `page ${b.page}`).toEqual(first!.block)
      // Every row starts on a line of its own with its circuit, and the totals come once.
      const rowStarts = pages
        .join('\n')
        .split('\n')
        .filter((l) => keys.some((k) => l.trimStart().startsWith(`${k} `)))
      expect(rowStarts).toHaveLength(report.rows.length)
      expect(
        pages
          .join('\n')
          .split('\n')
          .filter((l) => /^\s*Total\s+\d/.test(l)),
      ).toHaveLength(1)
    })
  })
})
