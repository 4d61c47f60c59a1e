import type { Map as LeafletMap } from 'leaflet'
import type { PaintType } from '../style/compilePaintStyle'

/**
 * Leaflet panes, bottom to top: rasters over the basemap (Leaflet's tile pane, 200), then vector data,
 * animated particles, the click override, and the basemap's names above all data (below Leaflet's
 * marker, tooltip and popup panes).
 */
export const PANES = {
  raster: 'el-raster',
  vector: 'el-vector',
  particles: 'el-particles',
  override: 'el-override',
  labels: 'el-labels',
} as const
const Z = {
  [PANES.raster]: 300,
  [PANES.vector]: 410,
  [PANES.particles]: 430,
  [PANES.override]: 440,
  [PANES.labels]: 450,
}
/** Panes that never take the pointer (clicks reach the map and its popups through them). */
const PASS_THROUGH: ReadonlySet<string> = new Set([PANES.particles, PANES.labels])

export function paneFor(type: PaintType, override = false): string {
  if (override) return PANES.override
  if (type === 'raster') return PANES.raster
  if (type === 'particles') return PANES.particles
  return PANES.vector
}

/** Creates the panes once per map. */
export function ensurePanes(map: LeafletMap): void {
  for (const [name, z] of Object.entries(Z)) {
    if (map.getPane(name)) continue
    const pane = map.createPane(name)
    pane.style.zIndex = String(z)
    if (PASS_THROUGH.has(name)) pane.style.pointerEvents = 'none'
  }
}
