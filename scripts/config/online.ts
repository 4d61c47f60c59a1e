// `validate-config --online`: asks each external source's server for its capabilities / metadata and
// reports what the YAML names that the server does not offer (layer names, an EPSG:3857 tile set or
// projection) and servers that cannot be reached, at the source's line in config/layers.yaml.
import { DOMParser } from '@xmldom/xmldom'
import type { ArcgisMapServerSource, Source, WmsSource, WmtsSource } from '../../src/generated/types'
import { UpstreamFailure } from '../../src/server/sources/fetchUpstream'
import { arcgisServiceJson, cacheLevels } from '../../src/server/sources/kinds/arcgisMapServer'
import { fetchDocument } from '../../src/server/sources/kinds/upstreamDocument'
import { capabilitiesUrl, planFromCapabilities, WmtsConfigError } from '../../src/server/sources/kinds/wmts'
import { fillEnv, MissingVariable } from '../../src/server/sources/upstreamUrl'
import {
  checkArcgisFeatureServer,
  checkCog,
  checkGeojson,
  checkOgcFeatures,
  checkPmtiles,
  checkTilejson,
  checkXyz,
} from './onlineKinds'
import type { PathSegment, Problem } from './problem'
import type { YamlSource } from './yamlSource'

/** One finding of a source's server, at a path below the source (`['layers']`, `['url']`). */
export interface OnlineFinding {
  readonly at: readonly PathSegment[]
  readonly message: string
  /** `at` is a path from the document's root (a map layer's paint), not below the source. */
  readonly absolute?: boolean
}

/** A name the YAML gives for a source outside it (a map layer's paint type, popup field, sourceLayer), at its path. */
export interface SourceUse {
  readonly at: readonly PathSegment[]
  readonly name: string
}

/** What a check knows besides the source: the environment and how the map layers use the source. */
export interface OnlineContext {
  readonly env: NodeJS.ProcessEnv
  /** The paint type of each map layer drawing the source, at mapLayers[i].paint.type. */
  readonly paints: readonly SourceUse[]
  /** The popup field keys of those map layers, at mapLayers[i].popup.fields[j].key. */
  readonly fields: readonly SourceUse[]
  /** Their sourceLayer names, at mapLayers[i].sourceLayer. */
  readonly sourceLayers: readonly SourceUse[]
  /** [lon, lat] of the map's home view: the xyz check asks the tile holding it. */
  readonly home: readonly [number, number]
}

/** A kind's online check: what its server says about the YAML's source. Throw for an unreachable server. */
export type OnlineCheck<S extends Source = Source> = (source: S, ctx: OnlineContext) => Promise<OnlineFinding[]>

interface XEl {
  readonly nodeType: number
  readonly nodeName: string
  readonly localName?: string | null
  readonly textContent: string | null
  readonly childNodes: ArrayLike<XEl>
  readonly parentNode: XEl | null
}
const local = (n: XEl) => n.localName ?? n.nodeName.replace(/^.*:/, '')

function parseXml(text: string): XEl {
  const doc = new DOMParser({
    onError: (level: string, msg: string) => {
      if (level !== 'warning') throw new Error(msg)
    },
  }).parseFromString(text, 'text/xml')
  const root = doc.documentElement as unknown as XEl | null
  if (!root) throw new Error('empty XML')
  return root
}

function all(n: XEl, name: string, out: XEl[] = []): XEl[] {
  for (const c of Array.from(n.childNodes)) {
    if (c.nodeType !== 1) continue
    if (local(c) === name) out.push(c)
    all(c, name, out)
  }
  return out
}

const WEB_MERCATOR = /^(EPSG:(3857|900913|102100))$/i

/** WMS: every name of `layers` is a named layer, and that layer (or a parent it inherits from) offers EPSG:3857. */
export const checkWms: OnlineCheck<WmsSource> = async (source, { env }) => {
  const url = new URL(fillEnv(source.url, env, true))
  url.searchParams.set('SERVICE', 'WMS')
  url.searchParams.set('REQUEST', 'GetCapabilities')
  url.searchParams.set('VERSION', source.version ?? '1.3.0')
  const root = parseXml((await fetchDocument(source, env, url)).toString('utf8'))
  if (/Exception/.test(local(root))) return [{ at: ['url'], message: `the server answered an exception to GetCapabilities` }]
  const layers = new Map<string, XEl>()
  for (const layer of all(root, 'Layer')) {
    const name = Array.from(layer.childNodes).find((c) => c.nodeType === 1 && local(c) === 'Name')
    if (name) layers.set((name.textContent ?? '').trim(), layer)
  }
  const findings: OnlineFinding[] = []
  for (const wanted of source.layers.split(',').map((s) => s.trim())) {
    const layer = layers.get(wanted)
    if (!layer) {
      const known = [...layers.keys()].slice(0, 10).join(', ')
      findings.push({ at: ['layers'], message: `WMS layer '${wanted}' is not offered by the server (layers: ${known || 'none'})` })
      continue
    }
    let mercator = false
    for (let n: XEl | null = layer; n && !mercator; n = n.parentNode) {
      if (n.nodeType !== 1 || local(n) !== 'Layer') continue
      mercator = Array.from(n.childNodes).some(
        (c) => c.nodeType === 1 && (local(c) === 'CRS' || local(c) === 'SRS') && WEB_MERCATOR.test((c.textContent ?? '').trim()),
      )
    }
    if (!mercator) findings.push({ at: ['layers'], message: `WMS layer '${wanted}' is not offered in EPSG:3857 (unsupported projection)` })
  }
  return findings
}

/** WMTS: the layer, style and an EPSG:3857 GoogleMapsCompatible tile matrix set exist. */
export const checkWmts: OnlineCheck<WmtsSource> = async (source, { env }) => {
  if (/\{TileMatrix\}|\{TileRow\}|\{TileCol\}/.test(source.url)) return []
  const url = capabilitiesUrl(source, env)
  const xml = (await fetchDocument(source, env, url)).toString('utf8')
  try {
    planFromCapabilities(xml, source, url)
    return []
  } catch (e) {
    if (!(e instanceof WmtsConfigError)) throw e
    const at = /style/.test(e.message)
      ? ['style']
      : /tile matrix set|EPSG/.test(e.message)
        ? source.tileMatrixSet
          ? ['tileMatrixSet']
          : ['url']
        : source.layer
          ? ['layer']
          : ['url']
    return [{ at, message: e.message }]
  }
}

/** ArcGIS MapServer: the service JSON reads, the sub-layers named exist, a forced cache maps to EPSG:3857. */
export const checkArcgisMapServer: OnlineCheck<ArcgisMapServerSource> = async (source, { env }) => {
  const json = (await arcgisServiceJson(source, env)) as {
    layers?: { id: number }[]
    tileInfo?: Parameters<typeof cacheLevels>[0]
    spatialReference?: { wkid?: number; latestWkid?: number }
  }
  const findings: OnlineFinding[] = []
  const ids = new Set((json.layers ?? []).map((l) => l.id))
  for (const id of (source.layers ?? '').split(',').filter(Boolean)) {
    if (!ids.has(Number(id))) findings.push({ at: ['layers'], message: `ArcGIS sub-layer ${id} is not in the service (layers: ${[...ids].join(', ') || 'none'})` })
  }
  if (source.tiles === 'cached' && !cacheLevels(json.tileInfo, source.minzoom, source.maxzoom)) {
    findings.push({ at: ['tiles'], message: `the service's tile cache is not EPSG:3857 with 256-pixel standard levels (unsupported projection)` })
  }
  return findings
}

/** The online check of each external kind (every kind of source from another server). */
export const ONLINE_CHECKS: Partial<Record<Source['type'], OnlineCheck<never>>> = {
  wms: checkWms,
  wmts: checkWmts,
  'arcgis-mapserver': checkArcgisMapServer,
  xyz: checkXyz,
  'arcgis-featureserver': checkArcgisFeatureServer,
  'ogc-features': checkOgcFeatures,
  geojson: checkGeojson,
  tilejson: checkTilejson,
  pmtiles: checkPmtiles,
  cog: checkCog,
}

interface RawMapLayer {
  readonly source?: unknown
  readonly paint?: { readonly type?: unknown }
  readonly popup?: { readonly fields?: readonly { readonly key?: unknown }[] }
  readonly sourceLayer?: unknown
}

/** How the map layers of the document use source `id`: paint types, popup fields, sourceLayers, at their paths. */
function usesOf(data: unknown, id: string): Pick<OnlineContext, 'paints' | 'fields' | 'sourceLayers'> {
  const mapLayers = ((data as { mapLayers?: unknown })?.mapLayers ?? []) as readonly RawMapLayer[]
  const paints: SourceUse[] = []
  const fields: SourceUse[] = []
  const sourceLayers: SourceUse[] = []
  mapLayers.forEach((m, i) => {
    if (!m || m.source !== id) return
    if (typeof m.paint?.type === 'string') paints.push({ at: ['mapLayers', i, 'paint', 'type'], name: m.paint.type })
    if (typeof m.sourceLayer === 'string') sourceLayers.push({ at: ['mapLayers', i, 'sourceLayer'], name: m.sourceLayer })
    ;(Array.isArray(m.popup?.fields) ? m.popup.fields : []).forEach((f, j) => {
      if (typeof f?.key === 'string') fields.push({ at: ['mapLayers', i, 'popup', 'fields', j, 'key'], name: f.key })
    })
  })
  return { paints, fields, sourceLayers }
}

/** Runs the online check of every source of layers.yaml that has one, in parallel; problems at the source's lines. */
export async function checkOnline(
  layersYaml: YamlSource,
  sources: readonly Source[],
  env: NodeJS.ProcessEnv = process.env,
  home: readonly [number, number] = [0, 0],
): Promise<Problem[]> {
  const results = await Promise.all(
    sources.map(async (source, i): Promise<Problem[]> => {
      const check = ONLINE_CHECKS[source.type] as OnlineCheck | undefined
      if (!check) return []
      const at = (rest: readonly PathSegment[]) => ['sources', i, ...rest]
      try {
        const findings = await check(source, { env, home, ...usesOf(layersYaml.data, source.id) })
        return findings.map((f) => layersYaml.problemAt(f.absolute ? f.at : at(f.at), `${source.id}: ${f.message}`))
      } catch (e) {
        const why =
          e instanceof UpstreamFailure || e instanceof MissingVariable
            ? e.message
            : `the answer could not be read (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`
        return [layersYaml.problemAt(at(['url']), `${source.id}: unreachable or unreadable: ${why}`)]
      }
    }),
  )
  return results.flat()
}
