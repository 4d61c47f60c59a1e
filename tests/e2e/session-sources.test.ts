import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, sharedServer, signIn, type TestServer } from './support'

// Spec §4: wind vector and smoke sources are initialised after login — on any screen, before a
// map asks for them.
let server: TestServer
let browser: Browser
let page: Page
const requested: string[] = []

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
  page = await newPage(browser)
  page.on('request', (r) => requested.push(new URL(r.url()).pathname))
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('after login', () => {
  it('fetches the wind grid and the smoke service config, on a screen without a map', async () => {
    await signIn(page, server, { path: '/Help' })
    const wanted = ['/api/data/wind_vectors/tileset', '/api/data/smoke/service/config']
    const deadline = Date.now() + 20_000
    const grid = () => requested.some((p) => p.startsWith('/api/data/wind_vectors/grid/'))
    while (!(wanted.every((w) => requested.includes(w)) && grid()) && Date.now() < deadline)
      await page.waitForTimeout(100)
    expect(requested).toEqual(expect.arrayContaining(wanted))
    expect(grid()).toBe(true)
    expect(requested.some((p) => p.startsWith('/api/tiles/'))).toBe(false)
  })
})

describe('background refresh', () => {
  it('calls sessions/authenticate once every 3 minutes — the app’s refresh only, not the SDK’s as well', async () => {
    const tab = await newPage(browser)
    await tab.clock.install()
    const refreshes: number[] = []
    tab.on('request', (r) => {
      if (new URL(r.url()).pathname === '/sdk/v1/b2b/sessions/authenticate') refreshes.push(Date.now())
    })
    await signIn(tab, server, { path: '/Help' })
    await tab.waitForTimeout(1000)
    const before = refreshes.length
    for (let round = 1; round <= 2; round++) {
      await tab.clock.fastForward('03:05')
      await tab.waitForTimeout(1500)
      expect(refreshes.length - before, `after ${round} × 3 minutes`).toBe(round)
    }
    await tab.close()
  })
})
