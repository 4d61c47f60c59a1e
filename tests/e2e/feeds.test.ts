import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, signIn, startServer, type TestServer } from './support'
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
  await signIn(page, server, { path: mapPath })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

describe('feed freshness in the sidebar', () => {
  it('shows source and age on the feed-backed layer: amber past twice the schedule, red with the error on hover', async () => {
    const viirs = '[data-testid="viirs_thermal_hotspot-freshness"][data-feed="firms-viirs"]'
    const modis = '[data-testid="viirs_thermal_hotspot-freshness"][data-feed="firms-modis"]'
    await page.waitForSelector(viirs)
    expect(await page.textContent(viirs)).toBe('VIIRS · 2 h ago')
    expect(await page.getAttribute(viirs, 'data-tone')).toBe('stale')
    expect(await page.getAttribute(viirs, 'class')).toContain('bp6-intent-warning')
    expect(await page.textContent(modis)).toBe('MODIS · never updated')
    expect(await page.getAttribute(modis, 'class')).toContain('bp6-intent-danger')
    expect(await page.getAttribute(modis, 'title')).toMatch(/^Last update failed: not CSV/)
    // Layers no feed writes carry no badge.
    expect(await page.$('[data-testid="buildings-freshness"]')).toBeNull()
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
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent === '201–228 of 228',
      range,
      { timeout: 90_000 },
    )
    expect(await page.locator(tableSelectors.rows).count()).toBe(28)
  }, 120_000)
})
