import { mapLayerById, sourceById, type LayerDefinition } from '../../shared/config'

/** One external source's state, as GET /api/sources/status answers it (src/server/sources/sourceStatus.ts). */
export interface SourceStatus {
  readonly id: string
  readonly kind: string
  readonly host: string | null
  readonly state: 'ok' | 'unavailable' | 'unknown'
  readonly message?: string
  readonly lastSuccess?: string
  readonly lastFailure?: string
}

/** The source ids a sidebar layer draws from: its map layers' and its sub-layers' map layers' sources. */
export function layerSourceIds(layer: LayerDefinition): string[] {
  const mapLayers = [...layer.layers, ...(layer.subLayers ?? []).map((s) => s.mapLayer)]
  const ids = new Set<string>()
  for (const id of mapLayers) {
    try {
      ids.add(sourceById(mapLayerById(id).source).id)
    } catch {
      // validate-config guarantees the references; nothing to show for an unknown one.
    }
  }
  return [...ids]
}

/** The layer's external sources that are unavailable now (empty: no badge). */
export function unavailableSources(
  layer: LayerDefinition,
  statuses: readonly SourceStatus[],
): SourceStatus[] {
  const ids = new Set(layerSourceIds(layer))
  return statuses.filter((s) => ids.has(s.id) && s.state === 'unavailable')
}
