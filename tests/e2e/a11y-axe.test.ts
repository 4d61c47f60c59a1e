import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig } from '../../src/shared/config'
import { countByRule, describeFindings, failing, newAxePage, runAxe, type AxeFinding } from './a11y.driver'
import { eventually, mapSelectors, paintedPoint, waitForMap } from './map.driver'
import {
  launchBrowser,
  loginSelectors,
  resultsDir,
  sharedServer,
  signIn,
  submitPassword,
  type TestServer,
} from './support'
import { openTable, tableSelectors, waitForIdle } from './tables.driver'

/**
 * Issue #22 item 2: zero serious or critical axe-core violations (WCAG 2.1 A/AA rules) on every
 * route — signed out and signed in, at the desktop and the phone width, with a table open and
 * with a popup open. The routes come from config (appConfig.routes.screens), plus / and an
 * unknown path, so a new screen is checked without editing this file.
 */

const viewports = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
} as const
type ViewportName = keyof typeof viewports

const { screens, sidebarExcluded, home } = appConfig.routes
const isPublic = (path: string) => appConfig.routes.public.some((p) => p.toLowerCase() === path.toLowerCase())
const hasMap = (path: string) => !sidebarExcluded.some((p) => p.toLowerCase() === path.toLowerCase())
const signedInPaths = [home, ...screens.map((s) => s.path).filter((p) => !isPublic(p)), '/no-such-page']
const mapPaths = screens.map((s) => s.path).filter((p) => !isPublic(p) && hasMap(p))

type SignedOutState = 'sign-in' | 'sign-in error' | 'code step' | 'reset requested' | 'reset form'
const signedOutStates: SignedOutState[] = [
  'sign-in',
  'sign-in error',
  'code step',
  'reset requested',
  'reset form',
]

/** Every axe finding (all impacts) per case, written to test-results/a11y-axe.json for the record. */
const record: Record<string, { failing: Record<string, number>; all: Record<string, number> }> = {}

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  mkdirSync(resultsDir, { recursive: true })
  writeFileSync(join(resultsDir, 'a11y-axe.json'), `${JSON.stringify(record, null, 2)}\n`)
})

/** Runs axe, records its findings and fails on any serious or critical one, listed readably. */
async function checkPage(page: Page, where: string): Promise<void> {
  const findings: AxeFinding[] = await runAxe(page)
  const bad = failing(findings)
  record[where] = { failing: countByRule(bad), all: countByRule(findings) }
  expect(bad.length, describeFindings(where, bad)).toBe(0)
}

/**
 * Lets the screen settle: no request of the page open for half a second, or 4 s. Playwright's own
 * 'networkidle' never came on a signed-in screen: the identity SDK's telemetry POST (/sdk/v1/events)
 * is never reported finished, so every check waited the whole bound (≈ 4 s × 48 of this file's
 * time). watchRequests counts the page's requests, that one left out.
 */
async function settle(page: Page): Promise<void> {
  await pageRequests.get(page)?.quiet(500, 4_000)
}

/** Requests the screens never wait for: the identity SDK's telemetry (the server drops it). */
const isTelemetry = (url: string) => /\/sdk\/v1\/events(\?|$)/.test(url)

const pageRequests = new WeakMap<Page, { quiet(forMs: number, boundMs: number): Promise<void> }>()

/** Counts the page's open requests (telemetry aside) from now on, for settle(). */
function watchRequests(page: Page): void {
  const open = new Set<Request>()
  let changed = Date.now()
  page.on('request', (request) => {
    if (isTelemetry(request.url())) return
    open.add(request)
    changed = Date.now()
  })
  const ended = (request: Request) => {
    if (open.delete(request)) changed = Date.now()
  }
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  pageRequests.set(page, {
    async quiet(forMs, boundMs) {
      const bound = Date.now() + boundMs
      while (Date.now() < bound && (open.size > 0 || Date.now() - changed < forMs))
        await new Promise((wait) => setTimeout(wait, 50))
    },
  })
}

async function openSignedOutState(page: Page, state: SignedOutState): Promise<void> {
  const login = `${server.url}${appConfig.routes.login}`
  switch (state) {
    case 'sign-in':
      await page.goto(login)
      await page.waitForSelector(loginSelectors.email)
      return
    case 'sign-in error':
      await page.goto(login)
      await page.fill(loginSelectors.email, 'nobody@emberline.test')
      await page.fill(loginSelectors.password, 'not-the-password-1')
      await page.click(loginSelectors.submit)
      await page.waitForSelector(loginSelectors.error)
      return
    case 'code step':
      await submitPassword(page, server)
      await page.waitForSelector(loginSelectors.code)
      return
    case 'reset requested':
      await page.goto(login)
      await page.fill(loginSelectors.email, 'nobody@emberline.test')
      await page.click(loginSelectors.forgot)
      await page.waitForSelector('[role="status"]')
      return
    case 'reset form':
      await page.goto(`${server.url}${appConfig.identity.resetPath}?token=not-a-real-token`)
      await page.waitForSelector(loginSelectors.newPassword)
      return
  }
}

/** On phones the sidebar is in the Layers drawer: opens it when its button is shown. */
async function showSidebar(page: Page): Promise<void> {
  await page.waitForSelector('.el-sidebar, button.el-layers-toggle')
  const toggle = page.locator('button.el-layers-toggle')
  if (await toggle.isVisible()) {
    await toggle.click()
    await page.waitForSelector('.el-layers-drawer .el-sidebar')
  }
}

/** Opens the Active Fires attribute table from the sidebar and waits for its rows. */
async function openActiveFiresTable(page: Page): Promise<void> {
  await showSidebar(page)
  await page.waitForSelector(tableSelectors.openTable('Active Fires'), { state: 'attached' })
  await openTable(page, 'Active Fires', 'fire_extent_active')
  await page.waitForSelector(tableSelectors.panel)
  await waitForIdle(page)
}

/** Opens a transmission line's popup (the screen opened with that layer alone) by clicking its pixel. */
async function openLinePopup(page: Page): Promise<void> {
  await waitForMap(page)
  const point = await eventually(() => paintedPoint(page, 'transmission_lines'), 30_000)
  if (!point) throw new Error('no transmission line drawn in the visible map to click')
  await page.mouse.click(point.x, point.y)
  await page.waitForSelector(mapSelectors.popup, { timeout: 10_000 })
  // After Leaflet's fade-in: half-faded text would be a contrast finding of the animation.
  await page.waitForFunction(
    (selector) => {
      for (let el = document.querySelector(selector); el; el = el.parentElement)
        if (getComputedStyle(el).opacity !== '1') return false
      return true
    },
    mapSelectors.popup,
    { timeout: 10_000 },
  )
}

/** Expands every layer of the sidebar: radios, check boxes, legends and intensity sliders shown. */
async function expandAllLayers(page: Page): Promise<void> {
  await showSidebar(page)
  const collapsed = page.locator('.el-sidebar .el-layer-row button[aria-expanded="false"]')
  for (let n = await collapsed.count(); n > 0; n = await collapsed.count()) await collapsed.first().click()
}

describe.each(Object.keys(viewports) as ViewportName[])('axe-core WCAG 2.1 A/AA at %s', (viewport) => {
  const size = viewports[viewport]

  describe('signed out', () => {
    let page: Page
    beforeAll(async () => {
      page = await newAxePage(browser, size)
      watchRequests(page)
    })
    afterAll(async () => {
      await page?.context().close()
    })
    it.each(signedOutStates)('%s', async (state) => {
      await openSignedOutState(page, state)
      await settle(page)
      await checkPage(page, `${viewport} signed out: ${state}`)
    })
  })

  describe('signed in', () => {
    let page: Page
    beforeAll(async () => {
      page = await newAxePage(browser, size)
      watchRequests(page)
      await signIn(page, server)
    })
    afterAll(async () => {
      await page?.context().close()
    })

    it.each(signedInPaths)('%s', async (path) => {
      await page.goto(`${server.url}${path}`)
      if (hasMap(path) && path !== '/no-such-page') await waitForMap(page)
      await settle(page)
      await checkPage(page, `${viewport} ${path}`)
    })

    it.each(mapPaths)('%s with a table open', async (path) => {
      await page.goto(`${server.url}${path}`)
      await openActiveFiresTable(page)
      await settle(page)
      await checkPage(page, `${viewport} ${path} + table`)
    })

    it.each(mapPaths)('%s with a popup open', async (path) => {
      await page.goto(`${server.url}${path}?layers=transmission_lines`)
      await openLinePopup(page)
      await checkPage(page, `${viewport} ${path} + popup`)
    })

    it('the table filter form open', async () => {
      await page.goto(`${server.url}${appConfig.routes.default}`)
      await openActiveFiresTable(page)
      await page.click('.emberline-add-filter-button')
      await page.waitForSelector('form[aria-label="Add filter"]')
      await checkPage(page, `${viewport} ${appConfig.routes.default} + table filter form`)
    })

    it('every layer of the sidebar expanded', async () => {
      await page.goto(`${server.url}${appConfig.routes.default}`)
      await waitForMap(page)
      await expandAllLayers(page)
      await checkPage(page, `${viewport} ${appConfig.routes.default} + layers expanded`)
    })

    it('the overflow menu open (the navigation drawer on phones)', async () => {
      await page.goto(`${server.url}${appConfig.routes.default}`)
      await waitForMap(page)
      const menu = page.locator('button[aria-label="Open menu"]')
      if (await menu.isVisible()) {
        await menu.click()
        await page.waitForSelector('.emberline-drawer')
      } else {
        await page.click(`button[aria-label="${appConfig.topBar.moreOptionsLabel}"]`)
        await page.waitForSelector('.bp6-menu')
      }
      await checkPage(page, `${viewport} ${appConfig.routes.default} + menu`)
    })
  })
})
