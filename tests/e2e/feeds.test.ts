import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, screenshot, signIn, startServer, type TestServer } from './support'
import { openTable, tableSelectors } from './tables.driver'

// A server in real-data mode (DEMO=off: nothing seeded) that `npm run feed` fills from the real
// VIIRS sample; the sidebar shows each feed's source and age, amber when stale, red when failed.
const repo = path.resolve(import.meta.dirname, '../..')
const FIX = path.join(repo, 'tests/fixtures/feeds')
const mapPath = '/dailywildfirerisk'
let server: TestServer
let browser: Browser
let page: Page
let work = ''

function feed(args: string[]): { status: number | null; out: string } {
  const r = spawnSync('npx', ['tsx', 'scripts/feed.ts', ...args, '--data-dir', server.dataDir], {
    cwd: repo,
    encoding: 'utf8',
  })
  return { status: r.status, out: `${r.stdout}${r.stderr}` }
}

beforeAll(async () => {
  server = await startServer({ demo: false })
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-feed-e2e-'))
  // The real sample, re-dated to three hours ago; the run's clock (--now) two hours ago.
  const t = new Date(Date.now() - 3 * 3_600_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const when = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())},${pad(t.getUTCHours())}${pad(t.getUTCMinutes())}`
  const csv = fs
    .readFileSync(path.join(FIX, 'viirs_snpp_conus_7d_2025-11-05_nm.csv'), 'utf8')
    .replace(/\d{4}-\d{2}-\d{2},\d{4}/g, when)
  fs.writeFileSync(path.join(work, 'viirs.csv'), csv)
  fs.writeFileSync(path.join(work, 'error.html'), '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>')
  const ok = feed([
    'firms-viirs',
    '--file',
    path.join(work, 'viirs.csv'),
    '--now',
    new Date(Date.now() - 2 * 3_600_000).toISOString(),
  ])
  expect(ok.status, ok.out).toBe(0)
  expect(ok.out).toContain('firms-viirs → thermal_hot_spots: read 305, kept 227, outside territory 78')
  const bad = feed(['firms-modis', '--file', path.join(work, 'error.html')])
  expect(bad.status, bad.out).toBe(1)
  expect(bad.out).toContain('feed failed, thermal_hot_spots unchanged: not CSV')
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1440, height: 900 })
  // Playwright's clock (time flows as usual) lets a test jump to the sidebar's next once-a-minute
  // poll instead of waiting up to a minute for it.
  await page.context().clock.install()
  await signIn(page, server, { path: mapPath })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

/** GET /api/feeds with the page's session. */
function feedsOf(p: Page) {
  return p.evaluate(async () => {
    const token = decodeURIComponent(
      document.cookie
        .split('; ')
        .find((c) => c.startsWith('stytch_session='))
        ?.split('=')[1] ?? '',
    )
    const r = await fetch('/api/feeds', { headers: { Authorization: `Bearer ${token}` } })
    return ((await r.json()) as { feeds: { id: string; lastError: string | null }[] }).feeds
  })
}

const badge = (layerId: string) =>
  `.el-layer-row[data-layer="${layerId}"] [data-testid="${layerId}-freshness"]`
const detail = (layerId: string) => `[data-testid="${layerId}-freshness-detail"]`

describe('feed freshness in the sidebar', () => {
  it('one badge per layer with its worst state: amber past twice the schedule, red when a feed failed, each feed in its popover', async () => {
    const viirs = badge('viirs_thermal_hotspot')
    await page.waitForSelector(viirs)
    expect(await page.locator(viirs).count()).toBe(1)
    // VIIRS ran two hours ago (stale at a 30-minute schedule); MODIS failed: the layer is red.
    expect(await page.textContent(viirs)).toBe('1 of 2 feeds failed')
    expect(await page.getAttribute(viirs, 'data-tone')).toBe('failed')
    expect(await page.getAttribute(viirs, 'class')).toContain('bp6-intent-danger')
    await page.click(viirs)
    const pop = detail('viirs_thermal_hotspot')
    await page.waitForSelector(pop)
    const rows = await page.$$eval(`${pop} [data-feed]`, (els) =>
      els.map((e) => [e.getAttribute('data-feed'), e.getAttribute('data-tone'), e.textContent]),
    )
    expect(rows).toEqual([
      [
        'firms-modis',
        'failed',
        expect.stringMatching(/^Failed\s*MODIS · never updated.*Last update failed: not CSV/),
      ],
      [
        'firms-viirs',
        'stale',
        expect.stringMatching(/^Stale\s*VIIRS · 2 h ago.*older than twice the 30-minute schedule/),
      ],
    ])
    await page.keyboard.press('Escape')
    await page.waitForSelector(pop, { state: 'detached' })
    // Layers no feed writes carry no badge.
    expect(await page.$('[data-testid="buildings-freshness"]')).toBeNull()
  })

  it('a grid feed (NDFD wind speed) gets the badge on the layer drawing its grid: red, with why the download was refused', async () => {
    // An HTML error page where the GRIB2 file should be: refused, the grid unchanged, the failure kept.
    const bad = feed(['ndfd-wind-speed', '--file', path.join(work, 'error.html')])
    expect(bad.status, bad.out).toBe(1)
    expect(bad.out).toContain('grid feed failed, sustained_wind_next unchanged')
    const p = await newPage(browser, { width: 1440, height: 900 })
    try {
      await signIn(p, server, { path: mapPath })
      await p.click('.el-category:has-text("PSPS")')
      const psps = badge('psps')
      await p.waitForSelector(psps)
      expect(await p.textContent(psps)).toBe('NDFD wind · never updated')
      expect(await p.getAttribute(psps, 'data-tone')).toBe('failed')
      await p.click(psps)
      const pop = detail('psps')
      await p.waitForSelector(pop)
      expect(await p.textContent(`${pop} [data-feed="ndfd-wind-speed"]`)).toMatch(
        /Last update failed: .*error\.html is not GRIB2: it starts with '<!DOCTYPE html>/,
      )
    } finally {
      await p.close()
    }
  })

  it('the table shows the rows the feed brought (DEMO=off serves what the feeds brought)', async () => {
    const res = await page.evaluate(async () => {
      const token = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('stytch_session='))
          ?.split('=')[1] ?? '',
      )
      const r = await fetch('/api/data/thermal_hot_spots/records?limit=1', {
        headers: { Authorization: `Bearer ${token}` },
      })
      return (await r.json()) as { total: number; records: { satellite: string; instrument: string }[] }
    })
    expect(res.total).toBe(227)
    expect(res.records[0]).toMatchObject({ satellite: 'Suomi NPP', instrument: 'VIIRS' })
  })

  it('an open table shows a row a feed run added, without reload or a click (its page kept)', async () => {
    await openTable(page, 'VIIRS Thermal Hotspot', 'thermal_hot_spots')
    const range = `${tableSelectors.panel} .emberline-range`
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.endsWith('of 227'), range)
    await page.click(tableSelectors.next)
    await page.click(tableSelectors.next)
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '201–227 of 227', range)
    // One new detection an hour ago near Santa Fe, merged into the hotspots by a CLI run.
    const t = new Date(Date.now() - 3_600_000)
    const pad = (n: number) => String(n).padStart(2, '0')
    const date = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`
    const time = `${pad(t.getUTCHours())}${pad(t.getUTCMinutes())}`
    fs.writeFileSync(
      path.join(work, 'one.csv'),
      'latitude,longitude,bright_ti4,scan,track,acq_date,acq_time,satellite,confidence,version,bright_ti5,frp,daynight\n' +
        `35.6871,-105.9378,330.5,0.4,0.4,${date},${time},N,high,2.0NRT,290.1,12.5,D\n`,
    )
    const added = feed(['firms-viirs', '--file', path.join(work, 'one.csv')])
    expect(added.status, added.out).toBe(0)
    expect(added.out).toContain('thermal_hot_spots now holds 228 features')
    // The sidebar's once-a-minute GET /api/feeds sees the new version; the table refetches page 3.
    await page.clock.fastForward(60_000)
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent === '201–228 of 228',
      range,
      { timeout: 90_000 },
    )
    expect(await page.locator(tableSelectors.rows).count()).toBe(28)
  }, 120_000)
})

describe('feeds failing with FEEDS=on (no network, FIRMS_MAP_KEY unset), Active Fires at 1440 px', () => {
  let live: TestServer
  let livePage: Page
  const layerId = 'viirs_thermal_hotspot'
  const row = `.el-layer-row[data-layer="${layerId}"]`
  const firms = ['firms-viirs', 'firms-viirs-noaa20', 'firms-viirs-noaa21', 'firms-modis']

  beforeAll(async () => {
    live = await startServer({ demo: false, env: { FEEDS: 'on', FIRMS_MAP_KEY: '' } })
    livePage = await newPage(browser, { width: 1440, height: 900 })
    await signIn(livePage, live, { path: mapPath })
    // The poller starts the feeds 2 s apart; the four FIRMS feeds fail at once without a key.
    const deadline = Date.now() + 90_000
    for (;;) {
      const feeds = await feedsOf(livePage)
      if (firms.every((id) => feeds.find((f) => f.id === id)?.lastError)) break
      if (Date.now() > deadline) throw new Error(`FIRMS feeds not failed: ${JSON.stringify(feeds)}`)
      await new Promise((r) => setTimeout(r, 1000))
    }
    await livePage.reload()
    await livePage.click('.el-category:has-text("Active Fires")')
    await livePage.waitForSelector(badge(layerId))
  }, 180_000)

  afterAll(async () => {
    await livePage?.close()
    await live?.stop()
  })

  it('shows one red badge, and the table button stays inside the sidebar and visible', async () => {
    expect(await livePage.locator(badge(layerId)).count()).toBe(1)
    expect(await livePage.textContent(badge(layerId))).toBe('4 feeds failed')
    expect(await livePage.getAttribute(badge(layerId), 'data-tone')).toBe('failed')
    const placed = await livePage.evaluate((sel) => {
      const sidebar = document.querySelector('.el-sidebar')?.getBoundingClientRect()
      const button = document.querySelector(`${sel} button[aria-label="Open VIIRS Thermal Hotspot table"]`)
      const box = button?.getBoundingClientRect()
      const label = document.querySelector(`${sel} .el-layer-switch`)
      if (!sidebar || !box || !button || !label) return null
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      const lineHeight = parseFloat(getComputedStyle(label).lineHeight)
      // The badge's text is read whole, not ellipsised.
      const text = document.querySelector(`${sel} .el-feed-badge .bp6-text-overflow-ellipsis`)
      return {
        inside: box.left >= sidebar.left && box.right <= sidebar.right,
        hitIsButton: hit !== null && button.contains(hit),
        badgeTextCut: text === null || text.scrollWidth > text.clientWidth,
        nameLines: Math.round(label.getBoundingClientRect().height / lineHeight),
        overflowX:
          (document.querySelector('.el-sidebar')?.scrollWidth ?? 0) -
          (document.querySelector('.el-sidebar')?.clientWidth ?? 0),
      }
    }, row)
    expect(placed).toEqual({
      inside: true,
      hitIsButton: true,
      badgeTextCut: false,
      nameLines: expect.any(Number),
      overflowX: 0,
    })
    expect(placed?.nameLines).toBeLessThanOrEqual(2)
    await screenshot(livePage, 'feeds-failing-active-fires-1440')
  })

  it('a click opens the popover with every feed and why it failed', async () => {
    await livePage.click(badge(layerId))
    const pop = detail(layerId)
    await livePage.waitForSelector(pop)
    const rows = await livePage.$$eval(`${pop} [data-feed]`, (els) =>
      els.map((e) => [e.getAttribute('data-feed'), e.textContent ?? '']),
    )
    expect(rows.map(([id]) => id)).toEqual(firms)
    for (const [, text] of rows) expect(text).toMatch(/Last update failed: .*FIRMS_MAP_KEY is not set/)
    expect(await livePage.isVisible(pop)).toBe(true)
    await livePage.keyboard.press('Escape')
    await livePage.waitForSelector(pop, { state: 'detached' })
  })

  it('the keyboard reaches the badge and opens the popover (focus, Enter), Escape closes it', async () => {
    await livePage.focus(`${row} .el-layer-switch input`)
    await livePage.keyboard.press('Tab')
    expect(await livePage.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      `${layerId}-freshness`,
    )
    const pop = detail(layerId)
    // Keyboard focus opens it, as a tap or a click does.
    await livePage.waitForSelector(pop)
    expect(await livePage.textContent(pop)).toContain('FIRMS_MAP_KEY is not set')
    await livePage.keyboard.press('Escape')
    await livePage.waitForSelector(pop, { state: 'detached' })
    await livePage.keyboard.press('Enter')
    await livePage.waitForSelector(pop)
    await livePage.keyboard.press('Escape')
    await livePage.waitForSelector(pop, { state: 'detached' })
  })
})
