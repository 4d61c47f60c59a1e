import type { Browser, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mapSelectors, setLayerVisible } from './map.driver'
import { launchBrowser, newPage, signIn, sharedServer, type TestServer } from './support'

const ROUTE = '/PSPS'
/** A drawn tile of a data layer (not the basemap). */
const DATA_TILE = `${mapSelectors.map} [class*="el-layer-"] .leaflet-tile-loaded`

let server: TestServer
let browser: Browser
let page: Page

/** The page's frame counter (an init script): frames so far, and the first frame showing each part. */
interface FrameCounter {
  readonly __firstView: {
    readonly frame: number
    readonly tileFrame: number
    readonly sidebarFrame: number
  }
}

/** When the page first showed a drawn data-layer tile and the layer sidebar. */
interface FirstFrame {
  /** Frame number of the first drawn data tile, and of the layer sidebar's first appearance (-1: not yet). */
  readonly tileFrame: number
  readonly sidebarFrame: number
}

beforeAll(async () => {
  server = await sharedServer()
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1400, height: 900 })
  await signIn(page, server)
  // Counts animation frames from the document's start and notes the first frame showing each part.
  await page.addInitScript(
    ({ tile, sidebar }) => {
      const seen = { frame: 0, tileFrame: -1, sidebarFrame: -1 }
      Object.assign(window, { __firstView: seen })
      const tick = () => {
        seen.frame += 1
        if (seen.tileFrame < 0 && document.querySelector(tile)) seen.tileFrame = seen.frame
        if (seen.sidebarFrame < 0 && document.querySelector(sidebar)) seen.sidebarFrame = seen.frame
        if (seen.tileFrame < 0 || seen.sidebarFrame < 0) requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
    },
    {
      tile: DATA_TILE,
      sidebar: mapSelectors.sidebar,
    },
  )
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** Opens the route afresh; resolves once the sidebar shows, with the frames that showed the first tile and it. */
async function openFirstView(): Promise<FirstFrame> {
  await page.goto('about:blank')
  await page.goto(`${server.url}${ROUTE}`, { waitUntil: 'commit' })
  await page.waitForSelector(DATA_TILE, { timeout: 30_000 })
  await page.waitForSelector(mapSelectors.sidebar, { timeout: 30_000 })
  const { tileFrame, sidebarFrame } = await page.evaluate(
    () => (window as unknown as FrameCounter).__firstView,
  )
  return { tileFrame, sidebarFrame }
}

describe('first map view', () => {
  it('renders the layer sidebar only once the first data tiles are drawn', async () => {
    // Once with the server's tiles warm (a cold tile slower than the sidebar's fallback would show it first).
    await openFirstView()
    // The data tiles are held back until the sidebar shows (it must not) or a few frames have passed.
    const held: Route[] = []
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let firstHeld = () => {}
    const heldOne = new Promise<void>((resolve) => {
      firstHeld = resolve
    })
    await page.route('**/api/tiles/**', async (route) => {
      held.push(route)
      firstHeld()
      await released
      await route.continue()
    })
    const opened = openFirstView()
    await heldOne
    const frameAtHold = await page.evaluate(() => (window as unknown as FrameCounter).__firstView.frame)
    await page.waitForFunction(
      ({ sidebar, until }) =>
        document.querySelector(sidebar) !== null ||
        (window as unknown as FrameCounter).__firstView.frame >= until,
      { sidebar: mapSelectors.sidebar, until: frameAtHold + 5 },
      { polling: 'raf', timeout: 30_000 },
    )
    release()
    const first = await opened
    await page.unroute('**/api/tiles/**')
    expect(held.length).toBeGreaterThan(0)
    expect(first.tileFrame).toBeGreaterThan(0)
    expect(first.sidebarFrame).toBeGreaterThan(first.tileFrame)
  })

  it('stacks the layers by draw order, and a layer turned on below others restacks nothing', async () => {
    await openFirstView()
    const containers = ['psps_line', 'transmission_lines', 'distribution_lines']
    // Tag the layers already drawn: a re-created layer would come back without the tag.
    await page.evaluate((ids) => {
      for (const id of ids) document.querySelector(`.el-map .el-layer-${id}`)?.setAttribute('data-tagged', id)
    }, containers)
    // Critical infrastructure sits below distribution lines in the sidebar: it is drawn beneath them.
    await setLayerVisible(page, 'critical_infrastructure', true)
    await page.waitForSelector('.el-map .el-layer-critical_infrastructure', {
      state: 'attached',
      timeout: 30_000,
    })
    const stack = await page.evaluate(
      (ids) =>
        ids.map((id) => {
          const el = document.querySelector<HTMLElement>(`.el-map .el-layer-${id}`)
          return {
            id,
            pane: el?.parentElement?.className ?? '',
            z: Number(el ? getComputedStyle(el).zIndex : NaN),
            tagged: el?.getAttribute('data-tagged') === id,
          }
        }),
      ['critical_infrastructure', 'distribution_lines', 'transmission_lines', 'psps_line'],
    )
    // one pane, strictly rising from the bottom layer to the top one
    expect(new Set(stack.map((layer) => layer.pane)).size).toBe(1)
    for (let i = 1; i < stack.length; i++) expect(stack[i]?.z).toBeGreaterThan(stack[i - 1]?.z ?? Infinity)
    expect(stack.filter((layer) => layer.tagged).map((layer) => layer.id)).toEqual([
      'distribution_lines',
      'transmission_lines',
      'psps_line',
    ])
    await setLayerVisible(page, 'critical_infrastructure', false)
  })
})
