import { fetchUpstream, UpstreamFailure } from './fetchUpstream'
import { fetchArcgisServiceJson } from './kinds/arcgisMapServer'
import { fetchDocument } from './kinds/upstreamDocument'
import { capabilitiesUrl, isRestTemplate } from './kinds/wmts'
import type { SourceHealth } from './sourceHealth'
import { tileUrl } from './tileUrl'
import {
  allowedHost,
  MissingVariable,
  upstreamHeaders,
  wmsCapabilitiesUrl,
  type ExternalSource,
} from './upstreamUrl'

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_BYTES = 5_000_000

/**
 * The status probe of a raster source (xyz, wms, wmts, arcgis-mapserver), run by the status route
 * when the source was not heard from lately: one cheap request asked now, past the response cache
 * (a cached tile says nothing about the upstream), through the same guarded fetch as the tiles —
 * WMS GetCapabilities, WMTS GetCapabilities (a RESTful template: its tile 0/0 at minzoom), the
 * ArcGIS service JSON (`?f=json`, a token exchanged as for tiles), an xyz tile 0/0 at minzoom (any
 * answer below 500 counts: a missing tile is still a server answering). The outcome goes to the
 * health record as a tile's would, so a source that comes back is ok again by itself.
 */
export function rasterProbe(
  source: ExternalSource,
  env: NodeJS.ProcessEnv,
  health: SourceHealth,
): () => Promise<unknown> {
  return async () => {
    try {
      await probeOnce(source, env)
      health.succeeded(source.id)
    } catch (e) {
      health.failed(
        source.id,
        e instanceof UpstreamFailure || e instanceof MissingVariable ? e.message : String(e),
      )
    }
  }
}

async function probeOnce(source: ExternalSource, env: NodeJS.ProcessEnv): Promise<void> {
  if (source.type === 'wms') {
    await fetchDocument(source, env, wmsCapabilitiesUrl(source, env))
  } else if (source.type === 'wmts' && !isRestTemplate(source.url)) {
    await fetchDocument(source, env, capabilitiesUrl(source, env))
  } else if (source.type === 'arcgis-mapserver') {
    await fetchArcgisServiceJson(source, env)
  } else {
    const answer = await fetchUpstream({
      url: await tileUrl(source, source.minzoom, 0, 0, env),
      allowedHost: allowedHost(source, env),
      headers: upstreamHeaders(source, env),
      timeoutMs: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: source.maxBytes ?? DEFAULT_MAX_BYTES,
      allowPrivateNetwork: source.allowPrivateNetwork === true,
    })
    if (answer.status >= 500) throw new UpstreamFailure(502, `upstream answered HTTP ${answer.status}`)
  }
}
