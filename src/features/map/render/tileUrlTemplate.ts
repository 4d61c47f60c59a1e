import type { MvtSource, PngSource } from '../../../shared/config'

/** Tile URL template of a source: `/api/tiles/<path or demoPath>/<mvt|png>/{z}/{x}/{y}`. */
export function tileUrlTemplate(source: MvtSource | PngSource, demo: boolean): string {
  const path = demo && source.demoPath ? source.demoPath : source.path
  return `/api/tiles/${path}/${source.type}/{z}/{x}/{y}`
}
