import { DOMParser } from '@xmldom/xmldom'
import type { WmtsSource } from '../../../shared/config'
import { UpstreamFailure } from '../fetchUpstream'
import { fillEnv } from '../upstreamUrl'
import { fetchDocument, Memo } from './upstreamDocument'

/** What our tiles need of a WMTS layer, read from GetCapabilities (or the YAML's REST template). */
export interface WmtsPlan {
  readonly layer: string
  readonly style: string
  readonly tileMatrixSet: string
  readonly format: string
  /** Matrix identifier of each of our zooms 0..maxzoom (GoogleMapsCompatible scales). */
  readonly matrixOfZoom: ReadonlyMap<number, string>
  /** The RESTful tile template (ResourceURL resourceType="tile"), or null for KVP GetTile. */
  readonly template: string | null
  /** The KVP GetTile base URL (the capabilities URL without its query). */
  readonly kvpBase: string
}

/** A WMTS answer our tiles cannot use (unknown layer, no EPSG:3857 set): a config error (502 at runtime). */
export class WmtsConfigError extends Error {}

/** Scale denominator of GoogleMapsCompatible zoom 0 (OGC WMTS Annex E.4; 0.28 mm pixels). */
const Z0_SCALE = 559082264.0287178
const HALF_WORLD = 20037508.342789244

export const isRestTemplate = (url: string): boolean => /\{TileMatrix\}|\{TileRow\}|\{TileCol\}/.test(url)

interface XEl {
  readonly nodeType: number
  readonly nodeName: string
  readonly localName?: string | null
  readonly textContent: string | null
  readonly childNodes: ArrayLike<XEl>
  getAttribute(name: string): string | null
}
const kids = (n: XEl, name?: string): XEl[] =>
  Array.from(n.childNodes).filter(
    (c) =>
      c.nodeType === 1 && (name === undefined || (c.localName ?? c.nodeName.replace(/^.*:/, '')) === name),
  )
const kid = (n: XEl, name: string): XEl | undefined => kids(n, name)[0]
const text = (n: XEl | undefined): string => (n?.textContent ?? '').trim()

interface MatrixSet {
  readonly id: string
  readonly crs: string
  readonly matrices: readonly {
    id: string
    scale: number
    left: number
    top: number
    tileWidth: number
    width: number
  }[]
}

/** True for EPSG:3857 and its aliases as WMTS capabilities spell them. */
export function isWebMercator(crs: string): boolean {
  return /(EPSG(:|::|\/0\/)|EPSG\/0\/)(3857|900913|102100)$|crs:EPSG::3857$|EPSG:3857$/i.test(crs.trim())
}

/**
 * The identifier of each zoom's matrix in a set: the set must be EPSG:3857 and have, for each zoom
 * 0..maxzoom, a 256-pixel matrix whose scale is that zoom's GoogleMapsCompatible scale (±1 %) with
 * the world's top-left corner. Null when some zoom has none (the set cannot be mapped).
 */
export function mapMatrixSet(set: MatrixSet, minzoom: number, maxzoom: number): Map<number, string> | null {
  if (!isWebMercator(set.crs)) return null
  const out = new Map<number, string>()
  for (let z = minzoom; z <= maxzoom; z++) {
    const want = Z0_SCALE / 2 ** z
    const m = set.matrices.find(
      (t) =>
        Math.abs(t.scale - want) / want < 0.01 &&
        t.tileWidth === 256 &&
        Math.abs(t.left + HALF_WORLD) < 1 &&
        Math.abs(t.top - HALF_WORLD) < 1,
    )
    if (!m) return null
    out.set(z, m.id)
  }
  return out
}

function parseCorner(s: string): [number, number] {
  const [a, b] = s.trim().split(/\s+/).map(Number)
  return [a ?? NaN, b ?? NaN]
}

/** Reads the plan of a source from its GetCapabilities document; throws WmtsConfigError. */
export function planFromCapabilities(xml: string, source: WmtsSource, capabilitiesUrl: URL): WmtsPlan {
  let root: XEl | null
  try {
    root = new DOMParser({
      onError: (level: string, msg: string) => {
        if (level !== 'warning') throw new Error(msg)
      },
    }).parseFromString(xml, 'text/xml').documentElement as unknown as XEl | null
  } catch {
    throw new WmtsConfigError('the WMTS capabilities are not XML')
  }
  const contents = root ? kid(root, 'Contents') : undefined
  if (!root || !contents) throw new WmtsConfigError('the answer is not WMTS capabilities (no Contents)')
  const layers = kids(contents, 'Layer')
  const layer = source.layer ? layers.find((l) => text(kid(l, 'Identifier')) === source.layer) : layers[0]
  if (!layer) {
    const names = layers.map((l) => text(kid(l, 'Identifier'))).slice(0, 20)
    throw new WmtsConfigError(
      source.layer
        ? `WMTS layer '${source.layer}' is not offered (layers: ${names.join(', ') || 'none'})`
        : 'the WMTS capabilities list no layer',
    )
  }
  const layerId = text(kid(layer, 'Identifier'))
  const styles = kids(layer, 'Style')
  const style =
    source.style ??
    text(kid(styles.find((s) => s.getAttribute('isDefault') === 'true') ?? styles[0] ?? layer, 'Identifier'))
  if (source.style && !styles.some((s) => text(kid(s, 'Identifier')) === source.style)) {
    throw new WmtsConfigError(`WMTS layer '${layerId}' has no style '${source.style}'`)
  }
  const formats = kids(layer, 'Format').map(text)
  const format = source.format ?? formats.find((f) => f === 'image/png') ?? formats[0] ?? 'image/png'
  const linked = kids(layer, 'TileMatrixSetLink').map((l) => text(kid(l, 'TileMatrixSet')))
  const sets: MatrixSet[] = kids(contents, 'TileMatrixSet').map((s) => ({
    id: text(kid(s, 'Identifier')),
    crs: text(kid(s, 'SupportedCRS')),
    matrices: kids(s, 'TileMatrix').map((m) => {
      const [left, top] = parseCorner(text(kid(m, 'TopLeftCorner')))
      return {
        id: text(kid(m, 'Identifier')),
        scale: Number(text(kid(m, 'ScaleDenominator'))),
        left,
        top,
        tileWidth: Number(text(kid(m, 'TileWidth'))),
        width: Number(text(kid(m, 'MatrixWidth'))),
      }
    }),
  }))
  const candidates = sets.filter((s) => linked.includes(s.id))
  let chosen: { set: MatrixSet; zooms: Map<number, string> } | null = null
  if (source.tileMatrixSet) {
    const set = candidates.find((s) => s.id === source.tileMatrixSet)
    if (!set)
      throw new WmtsConfigError(
        `WMTS layer '${layerId}' has no tile matrix set '${source.tileMatrixSet}' (sets: ${linked.join(', ')})`,
      )
    const zooms = mapMatrixSet(set, source.minzoom, source.maxzoom)
    if (!zooms)
      throw new WmtsConfigError(
        `tile matrix set '${set.id}' (${set.crs || 'no CRS'}) is not EPSG:3857 with GoogleMapsCompatible scales for zooms ${source.minzoom}-${source.maxzoom}`,
      )
    chosen = { set, zooms }
  } else {
    for (const set of candidates) {
      const zooms = mapMatrixSet(set, source.minzoom, source.maxzoom)
      if (zooms) {
        chosen = { set, zooms }
        break
      }
    }
    if (!chosen)
      throw new WmtsConfigError(
        `WMTS layer '${layerId}' has no EPSG:3857 GoogleMapsCompatible tile matrix set for zooms ${source.minzoom}-${source.maxzoom} (sets: ${candidates.map((s) => `${s.id} ${s.crs}`).join(', ') || 'none'})`,
      )
  }
  const resource = kids(layer, 'ResourceURL').find(
    (r) => r.getAttribute('resourceType') === 'tile' && (r.getAttribute('format') ?? format) === format,
  )
  const kvpBase = new URL(capabilitiesUrl.href)
  for (const k of [...kvpBase.searchParams.keys()])
    if (/^(service|request|version|acceptversions)$/i.test(k)) kvpBase.searchParams.delete(k)
  return {
    layer: layerId,
    style,
    tileMatrixSet: chosen.set.id,
    format,
    matrixOfZoom: chosen.zooms,
    template: resource?.getAttribute('template') ?? null,
    kvpBase: kvpBase.href,
  }
}

/** Capabilities-derived plans per source (an hour; a failure is remembered 30 s). */
const plans = new Memo<WmtsPlan>(3_600_000, 30_000)

/** The source's plan: from its (cached) GetCapabilities, or straight from a RESTful template. */
export async function wmtsPlan(source: WmtsSource, env: NodeJS.ProcessEnv): Promise<WmtsPlan> {
  if (isRestTemplate(source.url)) {
    const zooms = new Map<number, string>()
    for (let z = source.minzoom; z <= source.maxzoom; z++) zooms.set(z, String(z))
    return {
      layer: source.layer ?? '',
      style: source.style ?? 'default',
      tileMatrixSet: source.tileMatrixSet ?? 'GoogleMapsCompatible',
      format: source.format ?? 'image/png',
      matrixOfZoom: zooms,
      template: source.url,
      kvpBase: '',
    }
  }
  return plans.get(source.id, async () => {
    const url = capabilitiesUrl(source, env)
    const doc = await fetchDocument(source, env, url)
    return planFromCapabilities(doc.toString('utf8'), source, url)
  })
}

/** The GetCapabilities URL of a source (`url` as given, SERVICE/REQUEST added when it is KVP). */
export function capabilitiesUrl(source: WmtsSource, env: NodeJS.ProcessEnv): URL {
  const url = new URL(fillEnv(source.url, env, true))
  if (!/\.xml$/i.test(url.pathname)) {
    if (!url.searchParams.has('SERVICE') && !url.searchParams.has('service'))
      url.searchParams.set('SERVICE', 'WMTS')
    if (!url.searchParams.has('REQUEST') && !url.searchParams.has('request'))
      url.searchParams.set('REQUEST', 'GetCapabilities')
  }
  return url
}

/** The upstream URL of our tile z/x/y (the set is GoogleMapsCompatible: row = y, column = x). */
export async function wmtsTileUrl(
  source: WmtsSource,
  z: number,
  x: number,
  y: number,
  env: NodeJS.ProcessEnv,
): Promise<URL> {
  let plan: WmtsPlan
  try {
    plan = await wmtsPlan(source, env)
  } catch (e) {
    if (e instanceof WmtsConfigError) throw new UpstreamFailure(502, e.message)
    throw e
  }
  const matrix = plan.matrixOfZoom.get(z)
  if (matrix === undefined) throw new UpstreamFailure(502, `no tile matrix for zoom ${z}`)
  if (plan.template !== null) {
    const filled = fillEnv(plan.template, env, true)
      .replaceAll('{TileMatrixSet}', encodeURIComponent(plan.tileMatrixSet))
      .replaceAll('{TileMatrix}', encodeURIComponent(matrix))
      .replaceAll('{TileRow}', String(y))
      .replaceAll('{TileCol}', String(x))
      .replaceAll('{Style}', encodeURIComponent(plan.style))
      .replaceAll('{Layer}', encodeURIComponent(plan.layer))
    const url = new URL(filled)
    for (const [k, v] of Object.entries(source.query ?? {})) url.searchParams.set(k, fillEnv(v, env, false))
    return url
  }
  const url = new URL(plan.kvpBase)
  const params: Record<string, string> = {
    SERVICE: 'WMTS',
    REQUEST: 'GetTile',
    VERSION: '1.0.0',
    LAYER: plan.layer,
    STYLE: plan.style,
    TILEMATRIXSET: plan.tileMatrixSet,
    TILEMATRIX: matrix,
    TILEROW: String(y),
    TILECOL: String(x),
    FORMAT: plan.format,
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  for (const [k, v] of Object.entries(source.query ?? {})) url.searchParams.set(k, fillEnv(v, env, false))
  return url
}
