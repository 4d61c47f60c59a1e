import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FireWhatIfResult } from '../../src/shared/fireSim/wireTypes'
import { sessionToken } from './operations.driver'
import { closeSignedInPage, newPage, openSignedInPage, screenshot, type TestServer } from './support'

// "What if a fire starts here?" on the demo map: arm the tool, click the map, the hourly isochrones
// are drawn and what lies inside is listed; the share URL reopens the same fire in a new page.

const POLL = { timeout: 30_000, interval: 200 }
let server: TestServer
let browser: Browser
let page: Page
/** A demo point that burns, 300 m west (upwind or not) of a critical facility it reaches. */
let ignition: { lon: number; lat: number; facility: string }

async function post(body: object): Promise<{ status: number; result: FireWhatIfResult | null }> {
  const res = await fetch(`${server.url}/api/fire/simulate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await sessionToken(page)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, result: res.ok ? ((await res.json()) as FireWhatIfResult) : null }
}

beforeAll(async () => {
  // Signed in on a light page: the map is opened once, at the fire's point.
  ;({ server, browser, page } = await openSignedInPage('/Documentation'))
  // A facility of the demo with burnable fuel beside it whose fire reaches it (the demo's fuels are
  // seeded from its land cover: towns do not burn).
  const res = await fetch(`${server.url}/api/data/critical_infrastructure/records?limit=60`, {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  })
  const { records } = (await res.json()) as { records: { id: number; name: string; bbox: number[] }[] }
  for (const r of records) {
    const [lon0, lat0] = r.bbox as [number, number]
    for (const dx of [-300, 300, 0]) {
      const lon = Number((lon0 + dx / (111_320 * Math.cos((lat0 * Math.PI) / 180))).toFixed(5))
      const lat = Number(lat0.toFixed(5))
      const { status, result } = await post({ lon, lat, hours: 6 })
      if (status === 200 && result!.inside.criticalFacilities.some((f) => f.id === r.id)) {
        ignition = { lon, lat, facility: r.name }
        return
      }
    }
  }
  throw new Error('no demo facility with burnable fuel beside it')
}, 180_000)

afterAll(() => closeSignedInPage({ server, browser }))

/** What the page shows of a what-if: hours drawn, acres, facility labels. */
async function shown(p: Page) {
  await p.waitForSelector('[data-testid="fire-result"]', { timeout: 30_000 })
  await expect.poll(async () => p.locator('path.el-fire-isochrone').count(), POLL).toBeGreaterThan(0)
  const hours = await p.$$eval('path.el-fire-isochrone', (paths) =>
    paths
      .filter((el) => (el.getAttribute('d') ?? '').length > 20)
      .map((el) => [...el.classList].find((c) => c.startsWith('el-fire-hour-')) ?? ''),
  )
  return {
    hours: hours.sort(),
    acres: (await p.textContent('[data-testid="fire-acres"]'))?.trim() ?? '',
    facilities: await p.$$eval('[data-testid="fire-facilities"] li[data-id]', (items) =>
      items.map((li) => li.textContent ?? ''),
    ),
    labels: await p.$$eval('.el-fire-hour-label', (els) => els.map((e) => e.textContent ?? '')),
  }
}

describe('What if a fire starts here?', () => {
  let url = ''
  let first: Awaited<ReturnType<typeof shown>>

  it('arm the tool, click the map: hourly isochrones drawn and what lies inside listed', async () => {
    await page.goto(`${server.url}/DailyWildfireRisk?c=${ignition.lon},${ignition.lat}&z=13`)
    const button = page.getByRole('button', { name: 'What if a fire starts here?' })
    await button.click()
    await page.waitForSelector('[data-testid="fire-armed"]')
    expect(await button.getAttribute('aria-pressed')).toBe('true')
    // The map's centre is the ignition point (the view of the URL).
    const box = (await page.locator('.el-map').boundingBox())!
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    try {
      first = await shown(page)
    } catch (error) {
      await screenshot(page, 'fire-what-if-failed')
      throw error
    }
    expect(first.hours).toEqual([
      'el-fire-hour-1',
      'el-fire-hour-2',
      'el-fire-hour-3',
      'el-fire-hour-4',
      'el-fire-hour-5',
      'el-fire-hour-6',
    ])
    expect(first.labels).toEqual(['1 h', '2 h', '3 h', '4 h', '5 h', '6 h'])
    expect(first.facilities.join('\n')).toContain(ignition.facility)
    expect(first.acres).toMatch(/^[\d,]+ acres$/)
    expect(await page.textContent('[data-testid="fire-provenance"]')).toMatch(/fuel_model/)
    // Distinct graded fills, the first hour on top of the last.
    const fills = await page.$$eval('path.el-fire-isochrone', (paths) =>
      paths.map((el) => el.getAttribute('fill')),
    )
    expect(new Set(fills).size).toBe(6)
    // The what-if is in the URL.
    url = page.url()
    expect(new URL(url).searchParams.get('fireAt')).toMatch(/^-?\d+\.\d{5},-?\d+\.\d{5}$/)
    expect(new URL(url).searchParams.get('fireHour')).toMatch(/^\d+$/)
    await screenshot(page, 'fire-what-if')
  })

  it('a listed facility links to the feature', async () => {
    const item = page
      .locator('[data-testid="fire-facilities"] li[data-id]')
      .filter({ hasText: ignition.facility })
    const href = await item.locator('a').getAttribute('href')
    expect(href).toMatch(/^\/ogc\/collections\/critical_infrastructure\/items\/\d+$/)
    await item.getByRole('button').click()
    await page.waitForSelector('.el-fire-item-outline')
  })

  it('the share URL opened in a new page shows the same fire; Clear removes it; a long-press starts another', async () => {
    const other = await newPage(browser, { context: page.context(), width: 1440, height: 900 })
    try {
      await other.goto(url)
      const again = await shown(other)
      expect(again).toEqual(first)
      await other.getByRole('button', { name: 'Clear' }).click()
      await expect.poll(async () => other.locator('path.el-fire-isochrone').count(), POLL).toBe(0)
      expect(new URL(other.url()).searchParams.has('fireAt')).toBe(false)
      // On a touch screen a finger held ~600 ms on the map starts a what-if there (no arming).
      const asked = other.waitForRequest(
        (r) => r.method() === 'POST' && r.url().endsWith('/api/fire/simulate'),
        { timeout: 10_000 },
      )
      await other.locator('.el-map').evaluate((el) => {
        const r = el.getBoundingClientRect()
        const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }
        const init = { ...at, bubbles: true, pointerType: 'touch', isPrimary: true, pointerId: 7 }
        el.dispatchEvent(new PointerEvent('pointerdown', init))
      })
      const body = (await asked).postDataJSON() as { lon: number; lat: number }
      expect(Number.isFinite(body.lon) && Number.isFinite(body.lat)).toBe(true)
      await other.waitForSelector('[data-testid="fire-panel"]')
    } finally {
      await other.close()
    }
  })

  it('Add to shift briefing: the briefing prints the fire and draws it on its map', async () => {
    await page.getByRole('button', { name: 'Add to shift briefing' }).click()
    await page.waitForURL(/\/Briefing\?.*fireAt=/)
    const section = page.locator('[data-testid="briefing-fire"]')
    await expect
      .poll(async () => (await section.locator('[data-testid="fire-acres"]').textContent())?.trim(), POLL)
      .toBe(first.acres)
    expect(await section.textContent()).toContain(ignition.facility)
    // drawn on a canvas in the highlight pane, so the briefing's map picture has it
    await expect
      .poll(async () => page.locator('.leaflet-el-ops-highlight-pane canvas').count(), POLL)
      .toBeGreaterThan(0)
  })
})
