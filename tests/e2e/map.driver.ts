import type { Page, Request } from 'playwright-core'

/** Map-screen actions and probes for the browser journeys (selectors of src/features/map and layers). */
export const mapSelectors = {
  map: '.el-map',
  sidebar: '.el-sidebar',
  layerRow: (layerId: string) => `.el-layer-row[data-layer="${layerId}"]`,
  layerSwitch: (layerId: string) => `.el-layer-row[data-layer="${layerId}"] .el-layer-switch input`,
  expand: (layerId: string) => `.el-layer-row[data-layer="${layerId}"] button[aria-expanded]`,
  popup: '.el-popup',
} as const

/** Collects every request URL the page makes (tile URLs are checked against config). */
export function recordRequests(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (r: Request) => urls.push(new URL(r.url()).pathname + new URL(r.url()).search))
  return urls
}

/** Waits until the map container and at least one basemap tile are drawn. */
export async function waitForMap(page: Page): Promise<void> {
  await page.waitForSelector(`${mapSelectors.map} .leaflet-tile-loaded`, { timeout: 30_000 })
}

export async function setLayerVisible(page: Page, layerId: string, visible: boolean): Promise<void> {
  const input = page.locator(mapSelectors.layerSwitch(layerId))
  if ((await input.isChecked()) !== visible) await input.click({ force: true })
}

export async function expandLayer(page: Page, layerId: string): Promise<void> {
  const button = page.locator(mapSelectors.expand(layerId))
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click()
}

/**
 * Painted (non-transparent) pixels of a map layer: protomaps canvases and raster <img> tiles inside
 * the layer's container (class `el-layer-<mapLayerId>`), sampled every 4th pixel.
 */
export function paintedPixels(page: Page, mapLayerId: string): Promise<number> {
  return page.evaluate((id) => {
    let painted = 0
    const scratch = document.createElement('canvas')
    const count = (source: CanvasImageSource, w: number, h: number) => {
      if (w === 0 || h === 0) return
      scratch.width = w
      scratch.height = h
      const ctx = scratch.getContext('2d')
      if (!ctx) return
      ctx.clearRect(0, 0, w, h)
      ctx.drawImage(source, 0, 0)
      const data = ctx.getImageData(0, 0, w, h).data
      for (let i = 3; i < data.length; i += 16) if ((data[i] ?? 0) > 0) painted++
    }
    for (const root of document.querySelectorAll(`.el-layer-${id}`)) {
      for (const c of root.querySelectorAll('canvas')) count(c, c.width, c.height)
      for (const img of root.querySelectorAll('img'))
        if (img.complete) count(img, img.naturalWidth, img.naturalHeight)
    }
    return painted
  }, mapLayerId)
}

/** Opacity of a map layer's container as the browser computes it. */
export function layerOpacity(page: Page, mapLayerId: string): Promise<number> {
  return page.evaluate((id) => {
    const el = document.querySelector(`.el-layer-${id}`)
    return el ? Number(getComputedStyle(el).opacity) : NaN
  }, mapLayerId)
}

/** Polls until `probe` is truthy or the timeout passes; returns the last value. */
export async function eventually<T>(probe: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let value = await probe()
  while (!value && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200))
    value = await probe()
  }
  return value
}

/**
 * Screen position of a painted pixel of a map layer's canvases (the one nearest the map centre),
 * or null when nothing of it is drawn.
 */
export function paintedPoint(page: Page, mapLayerId: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate((id) => {
    const mapBox = document.querySelector('.el-map')?.getBoundingClientRect()
    if (!mapBox) return null
    const cx = mapBox.left + mapBox.width / 2
    const cy = mapBox.top + mapBox.height / 2
    let best: { x: number; y: number; d: number } | null = null
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`.el-layer-${id} canvas`)) {
      const box = canvas.getBoundingClientRect()
      const ctx = canvas.getContext('2d')
      if (!ctx || canvas.width === 0 || box.width === 0) continue
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
      const k = canvas.width / box.width
      for (let py = 2; py < canvas.height - 2; py += 3) {
        for (let px = 2; px < canvas.width - 2; px += 3) {
          if ((data[(py * canvas.width + px) * 4 + 3] ?? 0) < 200) continue
          const x = box.left + px / k
          const y = box.top + py / k
          if (x < mapBox.left + 60 || x > mapBox.right - 20 || y < mapBox.top + 20 || y > mapBox.bottom - 40)
            continue
          const d = Math.hypot(x - cx, y - cy)
          if (!best || d < best.d) best = { x, y, d }
        }
      }
    }
    return best ? { x: best.x, y: best.y } : null
  }, mapLayerId)
}

/** Current map centre and zoom as the share URL carries them. */
export function urlView(url: string): {
  c: string | null
  z: string | null
  layers: string | null
  sub: string | null
} {
  const p = new URL(url).searchParams
  return { c: p.get('c'), z: p.get('z'), layers: p.get('layers'), sub: p.get('sub') }
}
