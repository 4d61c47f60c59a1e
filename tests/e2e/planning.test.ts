import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsConfig } from '../../src/shared/config'
import { api, columnTexts, hourOf, opsSelectors as sel, pngRequests } from './operations.driver'
import { screenshot, type TestServer, openSignedInPage, closeSignedInPage } from './support'

interface PlanningBody {
  hour: number
  hours: number
  count: number
  validTime: string
  considered: number
  circuits: { key: string; threshold: number; storedThreshold: number; gust: number; exceeds: boolean }[]
}

const settings = operationsConfig.planning!
/** The machine is shared: answers can take a few seconds. */
const POLL = { timeout: 20_000, interval: 200 }
let server: TestServer
let browser: Browser
let page: Page
/** The API's list per hour (keys in rank order). */
let lists: string[][] = []

beforeAll(async () => {
  ;({ server, browser, page } = await openSignedInPage('/PlanningMode'))
  lists = []
  for (let h = 0; h < settings.hours; h++) {
    const body = await api<PlanningBody>(page, server, `/api/planning?hour=${h}`)
    lists.push(body.circuits.map((c) => c.key))
  }
})

afterAll(() => closeSignedInPage({ server, browser }))

async function openPlanning(hour: number): Promise<void> {
  await page.goto(`${server.url}/PlanningMode?hour=${hour}`)
  try {
    await page.waitForSelector(`${sel.planningValid}[data-hour="${hour}"]`)
    await expect.poll(async () => page.getAttribute(sel.planningPanel, 'aria-busy'), POLL).toBe('false')
  } catch (error) {
    await screenshot(page, 'planning-open-failed')
    throw error
  }
}

const shownKeys = () => columnTexts(page, sel.planningRows, 'key')

describe('/PlanningMode', () => {
  it('moving the slider changes the PNG tiles hour parameter and the list', async () => {
    // Two neighbouring hours whose lists differ (the demo gusts change through the window).
    const from = lists.findIndex((l, h) => h + 1 < lists.length && l.join() !== lists[h + 1]!.join())
    expect(
      from,
      'the demo forecast should change the list between some neighbouring hours',
    ).toBeGreaterThanOrEqual(0)
    const tiles = pngRequests(page)
    await openPlanning(from)
    expect(await shownKeys()).toEqual(lists[from])
    await expect
      .poll(() => tiles.urls.filter((u) => hourOf(u) === String(from)).length, POLL)
      .toBeGreaterThan(0)
    tiles.clear()
    await page.focus(sel.planningHandle)
    await page.keyboard.press('ArrowRight')
    await page.waitForSelector(`${sel.planningValid}[data-hour="${from + 1}"]`)
    await expect.poll(async () => page.getAttribute(sel.planningPanel, 'aria-busy'), POLL).toBe('false')
    await expect.poll(shownKeys, POLL).toEqual(lists[from + 1])
    await expect
      .poll(() => tiles.urls.filter((u) => hourOf(u) === String(from + 1)).length, POLL)
      .toBeGreaterThan(0)
    expect(tiles.urls.filter((u) => hourOf(u) === String(from))).toEqual([])
    // The previous hour's layer stays until the new tiles have loaded, then goes: no tile of it is left.
    const hoursOnMap = () =>
      page.$$eval('.leaflet-container img.leaflet-tile[src*="/png/"]', (imgs) =>
        imgs.map((img) => new URL((img as HTMLImageElement).src).searchParams.get('hour')),
      )
    await expect.poll(async () => (await hoursOnMap()).includes(String(from)), POLL).toBe(false)
    expect(await hoursOnMap()).toContain(String(from + 1))
    expect(new URL(page.url()).searchParams.get('hour')).toBe(String(from + 1))
    await screenshot(page, 'planning-slider')
  })

  it('selecting a listed circuit highlights it on the map', async () => {
    const hour = lists.findIndex((l) => l.length > 0)
    await openPlanning(hour)
    const row = page.locator(sel.planningRows).first()
    const [geometry] = await Promise.all([
      page.waitForResponse((r) => /\/api\/planning\/circuits\/\d+\/geometry/.test(r.url())),
      row.locator('td[data-field="key"]').click(),
    ])
    expect(geometry.status()).toBe(200)
    expect((await geometry.json()) as { properties: { key: string } }).toMatchObject({
      properties: { key: lists[hour]![0] },
    })
    await page.waitForSelector(`${sel.highlightPane} path`)
    expect(await row.getAttribute('aria-selected')).toBe('true')
  })

  it('a what-if threshold re-ranks the list via the server and leaves the stored value alone', async () => {
    const hour = lists.findIndex((l) => l.length >= 2)
    expect(hour, 'some hour should list two circuits or more').toBeGreaterThanOrEqual(0)
    const seen: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/planning')) seen.push(new URL(r.url()).search)
    })
    page.on('console', (m) => seen.push(`console: ${m.text()}`))
    await openPlanning(hour)
    const before = await shownKeys()
    const last = before.at(-1)!
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(`threshold.${encodeURIComponent(last)}=0`)),
      page.fill(sel.threshold(last), '0').then(() => page.press(sel.threshold(last), 'Enter')),
    ])
    expect(new URL(request.url()).searchParams.get('hour')).toBe(String(hour))
    await expect.poll(async () => (await shownKeys())[0], POLL).toBe(last)
    await page.waitForSelector(`.el-planning-overrides [data-key="${last}"]`)
    const stored = await api<PlanningBody>(page, server, `/api/planning?hour=${hour}`)
    expect(stored.circuits.map((c) => c.key)).toEqual(before)
    await screenshot(page, 'planning-what-if')
    const [reset] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/planning?')),
      page.click(sel.resetAll),
    ])
    expect(new URL(reset.url()).search).toBe(`?hour=${hour}`)
    await expect
      .poll(shownKeys, POLL)
      .toEqual(before)
      .catch(async (e: unknown) => {
        await screenshot(page, 'planning-reset-failed')
        throw new Error(`${String(e)}\nrequests: ${seen.join('\n')}`)
      })
  })

  it('listing circuits under threshold lets a lowered what-if threshold bring one into the list', async () => {
    const hour = lists.findIndex((l) => l.length > 0 && l.length < 30)
    expect(hour, 'some hour should list a few circuits but not all').toBeGreaterThanOrEqual(0)
    await openPlanning(hour)
    const all = await api<PlanningBody>(page, server, `/api/planning?hour=${hour}&below=true`)
    const under = all.circuits.find((c) => !c.exceeds)
    expect(under, 'some circuit should be under its threshold at that hour').toBeDefined()
    const [listed] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('below=true')),
      page.click('.el-planning-below .bp6-control-indicator'),
    ])
    expect(new URL(listed.url()).searchParams.get('hour')).toBe(String(hour))
    await expect.poll(async () => (await shownKeys()).length, POLL).toBe(all.circuits.length)
    const key = under!.key
    await page.fill(sel.threshold(key), String(Math.floor(under!.gust) - 1))
    await page.press(sel.threshold(key), 'Enter')
    await page.click('.el-planning-below .bp6-control-indicator')
    await expect.poll(shownKeys, POLL).toContain(key)
    expect(await page.locator(`${sel.planningRows}[data-key="${key}"]`).getAttribute('class')).toContain(
      'el-planning-over',
    )
  })
})
