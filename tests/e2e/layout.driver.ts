import type { Page } from 'playwright-core'

/** Selectors of the map screen's layout (src/features/map/layout). */
export const layoutSelectors = {
  map: '.el-map',
  sidebar: '.el-sidebar',
  layersToggle: 'button.el-layers-toggle',
  layersDrawer: '.el-layers-drawer',
  dock: (id: string) => `.el-dock[data-dock="${id}"]`,
  handle: (id: string) => `.el-dock[data-dock="${id}"] > .el-dock-bar > [role="separator"]`,
  toggle: (id: string) => `.el-dock[data-dock="${id}"] > .el-dock-bar > .el-dock-toggle`,
  routeDock: 'el-route-panel',
  tablesDock: 'el-tables-dock',
  openTable: (layerName: string) => `button[aria-label="Open ${layerName} table"]`,
  tablesPanel: '.emberline-tables-panel',
} as const

export interface Box {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

/** The map's box on the page. */
export async function mapBox(page: Page): Promise<Box> {
  const box = await page.locator(layoutSelectors.map).boundingBox()
  if (!box) throw new Error('the map is not on the page')
  return box
}

/** Height (px) of a docked panel, or 0 when it is not on the page. */
export async function dockHeight(page: Page, id: string): Promise<number> {
  const box = await page.locator(layoutSelectors.dock(id)).boundingBox()
  return box?.height ?? 0
}

/** Polls until `probe` holds or the timeout passes; returns the last value. */
export async function until<T>(
  probe: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let value = await probe()
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 150))
    value = await probe()
  }
  return value
}

/** Console warnings and errors of a page, collected from now on. */
export function consoleMessages(page: Page): string[] {
  const messages: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') messages.push(m.text())
  })
  return messages
}

/**
 * Names of the Blueprint popover components behind every popover target on the page, read from
 * React's fiber tree (class and function names survive the production build through Blueprint's
 * `displayName`): `Blueprint6.Popover` is the react-popper one React 19 mis-positions,
 * `Blueprint6.PopoverNext` its floating-ui replacement.
 */
export function popoverComponents(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const names: string[] = []
    for (const el of document.querySelectorAll('[class*="-popover-target"]')) {
      const key = Object.keys(el).find((k) => k.startsWith('__reactFiber$'))
      let fiber = key
        ? (el as unknown as Record<string, { return: unknown; type: unknown } | undefined>)[key]
        : undefined
      while (fiber) {
        const type = fiber.type as { displayName?: string } | string | null
        const name = typeof type === 'object' || typeof type === 'function' ? type?.displayName : undefined
        if (name && /\.Popover(Next)?$/.test(name)) {
          names.push(name)
          break
        }
        fiber = fiber.return as typeof fiber
      }
    }
    return names
  })
}
