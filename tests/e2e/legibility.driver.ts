import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'

export type Rgb = readonly [number, number, number]

/** A point where the labels pane paints a place name's fill over a painted raster pixel. */
export interface LabelOverData {
  readonly x: number
  readonly y: number
  /** The raster beneath, at that point (what the screen would show if the name were hidden). */
  readonly data: Rgb
}

/**
 * Points of the basemap's labels pane (`.el-basemap-labels` canvases) painted in the label colour,
 * where a data raster tile (`[class*="el-layer-"] img`) beneath is painted too. Screen coordinates.
 */
export function labelsOverData(page: Page, label: Rgb, limit = 40): Promise<LabelOverData[]> {
  return page.evaluate(
    ({ label, limit }) => {
      const near = (r: number, g: number, b: number, c: readonly number[], tol: number) =>
        Math.abs(r - (c[0] ?? 0)) <= tol &&
        Math.abs(g - (c[1] ?? 0)) <= tol &&
        Math.abs(b - (c[2] ?? 0)) <= tol
      const mapBox = document.querySelector('.el-map')?.getBoundingClientRect()
      if (!mapBox) return []
      const scratch = document.createElement('canvas').getContext('2d', { willReadFrequently: true })
      const rasterAt = (x: number, y: number): [number, number, number] | null => {
        for (const img of document.querySelectorAll<HTMLImageElement>('.el-map [class*="el-layer-"] img')) {
          const r = img.getBoundingClientRect()
          if (!img.complete || x < r.left || x >= r.right || y < r.top || y >= r.bottom || !scratch) continue
          const k = img.naturalWidth / r.width
          scratch.clearRect(0, 0, 1, 1)
          scratch.drawImage(img, (x - r.left) * k, (y - r.top) * k, 1, 1, 0, 0, 1, 1)
          const [cr = 0, cg = 0, cb = 0, ca = 0] = scratch.getImageData(0, 0, 1, 1).data
          if (ca > 100) return [cr, cg, cb]
        }
        return null
      }
      const found: { x: number; y: number; data: [number, number, number] }[] = []
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.el-basemap-labels canvas')) {
        const box = canvas.getBoundingClientRect()
        const ctx = canvas.getContext('2d')
        if (!ctx || canvas.width === 0 || box.width === 0) continue
        const k = canvas.width / box.width
        const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data
        for (let py = 1; py < canvas.height - 1 && found.length < limit; py += 2) {
          for (let qx = 1; qx < canvas.width - 1 && found.length < limit; qx += 2) {
            const i = (py * canvas.width + qx) * 4
            if ((px[i + 3] ?? 0) < 250 || !near(px[i] ?? 0, px[i + 1] ?? 0, px[i + 2] ?? 0, label, 6))
              continue
            const x = Math.floor(box.left + qx / k) + 0.5
            const y = Math.floor(box.top + py / k) + 0.5
            if (
              x < mapBox.left + 60 ||
              x > mapBox.right - 10 ||
              y < mapBox.top + 10 ||
              y > mapBox.bottom - 30
            )
              continue
            const data = rasterAt(x, y)
            if (data && !near(data[0], data[1], data[2], label, 40)) found.push({ x, y, data })
          }
        }
      }
      return found
    },
    { label, limit },
  )
}

/** Colours of a page screenshot at the given points (device pixel ratio 1). */
export async function screenshotColours(
  page: Page,
  points: readonly { x: number; y: number }[],
): Promise<Rgb[]> {
  const png = PNG.sync.read(await page.screenshot())
  return points.map(({ x, y }) => {
    const i = (Math.floor(y) * png.width + Math.floor(x)) * 4
    return [png.data[i] ?? 0, png.data[i + 1] ?? 0, png.data[i + 2] ?? 0] as const
  })
}

/** Largest difference of one channel. */
export const colourDistance = (a: Rgb, b: Rgb): number =>
  Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]))

/** '#rrggbb' → [r, g, b]. */
export const hexRgb = (hex: string): Rgb => {
  const n = Number.parseInt(hex.slice(1, 7), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}
