import { mapLayerById, sourceById, type LayerDefinition } from '../../shared/config'
import { formatDate, type FormatOptions } from '../../shared/format'

/** A stored grid's provenance, as `GET /api/grids` answers it (src/server/grids/gridInfoRoutes.ts). */
export interface GridProvenance {
  readonly id: string
  readonly title: string
  readonly hours: number
  readonly version: string
  readonly source: string
  readonly refTime: string | null
  readonly validTimes: readonly string[]
}

/** What the demo seed records as its grids' source: nothing worth a line under the legend. */
const SEEDED = 'synthetic'

/** The grids a sidebar layer draws (its map layers' and sub-layers' `png` sources), each once. */
export function gridsOfLayer(layer: LayerDefinition): string[] {
  const mapLayers = [...layer.layers, ...(layer.subLayers ?? []).map((s) => s.mapLayer)]
  const grids = mapLayers.flatMap((id) => {
    const source = sourceById(mapLayerById(id).source)
    return source.type === 'png' ? [source.grid] : []
  })
  return [...new Set(grids)]
}

/**
 * The line under a grid's legend: where its values came from, the model run and the valid times,
 * e.g. "hrrr.grib2 · run Nov 27, 2026, 5:00 AM MST · valid Nov 27, 2026, 6:00 AM MST – 8:00 AM MST
 * (3 hours)". Null for the demo's synthetic grids.
 */
export function provenanceText(p: GridProvenance, format?: FormatOptions): string | null {
  if (p.source === SEEDED) return null
  const parts = [p.source]
  if (p.refTime) parts.push(`run ${formatDate(p.refTime, format)}`)
  const first = p.validTimes[0]
  const last = p.validTimes.at(-1)
  if (first && last && p.validTimes.length > 1)
    parts.push(
      `valid ${formatDate(first, format)} – ${formatDate(last, format)} (${p.validTimes.length} hours)`,
    )
  else if (first) parts.push(`valid ${formatDate(first, format)}`)
  return parts.join(' · ')
}
