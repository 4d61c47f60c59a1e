import {
  envGatedSourceIds,
  layersConfig,
  mapLayerById,
  sourceById,
  type LayerDefinition,
} from '../../shared/config'

/** One external source's state, as GET /api/sources/status answers it (src/server/sources/sourceStatus.ts). */
export interface SourceStatus {
  readonly id: string
  readonly kind: string
  readonly host: string | null
  readonly state: 'ok' | 'unavailable' | 'unknown'
  /** False while a `${NAME}` of the source's url is unset on the server (its layers are hidden). */
  readonly configured?: boolean
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

/**
 * The layers not offered now: those drawing from an env-gated source that the server has not
 * reported configured (before the first answer too, so a switched-off layer never flashes in).
 */
export function hiddenLayerIds(
  statuses: readonly SourceStatus[],
  layers: readonly LayerDefinition[] = layersConfig.layers,
  gated: ReadonlySet<string> = envGatedSourceIds(),
): Set<string> {
  const configured = new Set(statuses.filter((s) => s.configured === true).map((s) => s.id))
  return new Set(
    layers
      .filter((l) => layerSourceIds(l).some((id) => gated.has(id) && !configured.has(id)))
      .map((l) => l.id),
  )
}
