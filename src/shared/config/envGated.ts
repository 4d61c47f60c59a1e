import { layersConfig } from '../../generated/config'
import type { LayerDefinition, Source } from '../../generated/types'
import { mapLayerById } from './catalogue'

const PLACEHOLDER = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/

/**
 * Sources switched on by the server's environment: a `${NAME}` placeholder in their `url` (or
 * pmtiles `file`). Their layers are offered only while the server reports them configured
 * (GET /api/sources/status), so a catalogue can ship a utility's own servers switched off.
 */
export function envGatedSourceIds(sources: readonly Source[] = layersConfig.sources): Set<string> {
  const gated = (text: unknown) => typeof text === 'string' && PLACEHOLDER.test(text)
  return new Set(
    sources
      .filter((s) => gated('url' in s ? s.url : undefined) || gated('file' in s ? s.file : undefined))
      .map((s) => s.id),
  )
}

/** The layers drawing from an env-gated source (hidden while the server has it unset). */
export function envGatedLayerIds(
  layers: readonly LayerDefinition[] = layersConfig.layers,
  gated: ReadonlySet<string> = envGatedSourceIds(),
): Set<string> {
  return new Set(
    layers
      .filter((l) =>
        [...l.layers, ...(l.subLayers ?? []).map((s) => s.mapLayer)].some((id) =>
          gated.has(mapLayerById(id).source),
        ),
      )
      .map((l) => l.id),
  )
}
