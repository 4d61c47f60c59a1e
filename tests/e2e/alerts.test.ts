import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestServer, openSignedInPage, closeSignedInPage } from './support'
import { sessionToken } from './tables.driver'

const PATH = '/Alerts'
const sel = {
  ready: '.el-alerts-panel[data-status="ready"]',
  rows: '.el-alerts-table tbody tr[data-alert-id]',
  row: (id: string) => `.el-alerts-table tbody tr[data-alert-id="${id}"]`,
  hazard: '.leaflet-pane path.el-alert-hazard',
  asset: '.leaflet-pane path.el-alert-asset',
  map: '.leaflet-container',
}

interface ApiAlert {
  id: string
  severity: string
  assets: unknown[]
  acknowledged: boolean
}

let server: TestServer
let browser: Browser
let page: Page

async function apiAlerts(query = ''): Promise<ApiAlert[]> {
  const res = await fetch(`${server.url}/api/alerts${query}`, {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  })
  if (!res.ok) throw new Error(`/api/alerts${query}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { alerts: ApiAlert[] }).alerts
}

async function openAlerts(): Promise<void> {
  await page.goto(`${server.url}${PATH}`)
  await page.waitForSelector(sel.ready)
}

async function rowIds(): Promise<string[]> {
  await page.waitForSelector(sel.ready)
  return page.$$eval(sel.rows, (rows) => rows.map((r) => r.getAttribute('data-alert-id') ?? ''))
}

/** The map pane's translation and the URL (the share-URL sync writes the view into it). */
const mapView = () =>
  page.evaluate(
    () =>
      `${document.querySelector<HTMLElement>('.leaflet-map-pane')?.style.transform ?? ''} ${location.search}`,
  )

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage(PATH))
})

afterAll(() => closeSignedInPage({ server, browser }))

describe('/Alerts', () => {
  it('lists the alerts in the order the API gives', async () => {
    await openAlerts()
    const api = await apiAlerts()
    expect(api.length).toBeGreaterThan(0)
    expect(await rowIds()).toEqual(api.map((a) => a.id))
  })

  it('filters by severity through the API', async () => {
    await openAlerts()
    const severity = (await apiAlerts())[0]!.severity
    const request = page.waitForRequest((r) => r.url().includes(`/api/alerts?severity=${severity}`))
    await page.selectOption('select[aria-label="Severity"]', severity)
    await request
    await expect.poll(rowIds).toEqual((await apiAlerts(`?severity=${severity}`)).map((a) => a.id))
  })

  it("'Show on map' draws the hazard and its assets on the map and moves the map to them", async () => {
    await openAlerts()
    const alert = (await apiAlerts()).find((a) => a.assets.length > 0)!
    await page.waitForSelector(`${sel.map} .leaflet-tile-container`, { state: 'attached' })
    const before = await mapView()
    await page.click(`${sel.row(alert.id)} button:has-text("Show on map")`)
    await page.waitForSelector(sel.hazard, { state: 'attached' })
    expect(await page.$$(sel.asset)).toHaveLength(alert.assets.length)
    await expect.poll(mapView).not.toBe(before)

    const map = (await page.locator(sel.map).boundingBox())!
    const hazard = (await page.locator(sel.hazard).boundingBox())!
    expect(hazard.width + hazard.height).toBeGreaterThan(0)
    expect(hazard.x + hazard.width / 2).toBeGreaterThan(map.x)
    expect(hazard.x + hazard.width / 2).toBeLessThan(map.x + map.width)
    expect(hazard.y + hazard.height / 2).toBeGreaterThan(map.y)
    expect(hazard.y + hazard.height / 2).toBeLessThan(map.y + map.height)
    expect(await page.getAttribute(sel.hazard, 'd')).toMatch(/\d/)

    // Showing another alert replaces the highlight.
    const other = (await apiAlerts()).find((a) => a.id !== alert.id)
    if (other) {
      await page.click(`${sel.row(other.id)} button:has-text("Show on map")`)
      await expect.poll(() => page.$$(sel.asset).then((x) => x.length)).toBe(other.assets.length)
      expect(await page.$$(sel.hazard)).toHaveLength(1)
    }
  })

  it('acknowledging persists across a reload', async () => {
    await openAlerts()
    const alert = (await apiAlerts()).find((a) => !a.acknowledged)!
    await page.click(`${sel.row(alert.id)} button:has-text("Acknowledge")`)
    await page.waitForSelector(`${sel.row(alert.id)}[data-acknowledged="true"]`)

    await page.reload()
    await page.waitForSelector(sel.ready)
    expect(await page.getAttribute(sel.row(alert.id), 'data-acknowledged')).toBe('true')
    expect((await apiAlerts()).find((a) => a.id === alert.id)?.acknowledged).toBe(true)

    // Leave the shared server as it was.
    await page.click(`${sel.row(alert.id)} button:has-text("Undo")`)
    await page.waitForSelector(`${sel.row(alert.id)}[data-acknowledged="false"]`)
  })
})
