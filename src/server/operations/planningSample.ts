import { sampleBilinear, type GridRaster } from '../grids/gridRaster'
import type { Parts } from '../store/geometryCodec'

/** At most this many samples per segment (a malformed geometry cannot stall the server). */
const MAX_STEPS = 4096

/**
 * The largest grid value along a line: bilinear samples (as the raster tiles colour them) at every
 * vertex and at points densified to half a grid cell along each segment. NaN when the line lies
 * entirely outside the grid or over no-data cells.
 */
export function sampleLineMax(grid: GridRaster, parts: Parts): number {
  const stepX = (grid.east - grid.west) / grid.nx / 2
  const stepY = (grid.north - grid.south) / grid.ny / 2
  let max = Number.NaN
  const take = (lon: number, lat: number) => {
    const v = sampleBilinear(grid, lon, lat)
    if (!Number.isNaN(v) && !(v <= max)) max = v
  }
  for (const part of parts) {
    for (const ring of part) {
      for (let k = 0; k < ring.length; k++) {
        const a = ring[k]
        if (!a) continue
        const ax = a[0] ?? NaN
        const ay = a[1] ?? NaN
        take(ax, ay)
        const b = ring[k + 1]
        if (!b) continue
        const dx = (b[0] ?? NaN) - ax
        const dy = (b[1] ?? NaN) - ay
        const n = Math.min(MAX_STEPS, Math.ceil(Math.max(Math.abs(dx) / stepX, Math.abs(dy) / stepY)))
        for (let s = 1; s < n; s++) take(ax + (dx * s) / n, ay + (dy * s) / n)
      }
    }
  }
  return max
}
