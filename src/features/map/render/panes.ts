import type { Map as LeafletMap } from 'leaflet'
import type { PaintType } from '../catalog/catalogTypes'

/** Leaflet panes, bottom to top: rasters over the basemap, then vector data, then animated particles. */
export const PANES = {
  raster: 'el-raster',
  vector: 'el-vector',
  particles: 'el-particles',
  override: 'el-override',
} as const
const Z = { [PANES.raster]: 300, [PANES.vector]: 410, [PANES.particles]: 430, [PANES.override]: 440 }

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
    if (name === PANES.particles) pane.style.pointerEvents = 'none'
  }
}
