// `validate-config --online` checks of the feature, archive and xyz kinds (the WMS, WMTS and ArcGIS
// MapServer ones are in online.ts): each asks the source's server through the proxy's own readers
// (same host allow-list, credentials, timeouts and size caps) and compares its answer with the YAML.
import type { Feature } from 'geojson'
import { bytesToHeader, TileType } from 'pmtiles'
import type {
  ArcgisFeatureServerSource,
  CogSource,
  GeojsonSource,
  OgcFeaturesSource,
  PmtilesSource,
  TilejsonSource,
  XyzSource,
} from '../../src/generated/types'
import { fetchUpstream, UpstreamFailure } from '../../src/server/sources/fetchUpstream'
import { fetchFor, filledUrl, type KindContext } from '../../src/server/sources/kinds/archive'
import { openCog } from '../../src/server/sources/kinds/cog'
import { featuresOf } from '../../src/server/sources/kinds/featureTiles'
import { baseUrl, isObject, ogcJson, upstreamJson } from '../../src/server/sources/kinds/featureUpstream'
import { parseTileJson } from '../../src/server/sources/kinds/tilejson'
import { SourceCache } from '../../src/server/sources/sourceCache'
import { SourceHealth } from '../../src/server/sources/sourceHealth'
import { tileUrl } from '../../src/server/sources/tileUrl'
import { allowedHost, tilePixel, upstreamHeaders } from '../../src/server/sources/upstreamUrl'
import type { OnlineCheck, OnlineContext, OnlineFinding } from './online'

/** The proxy's reading context for one run of checks (a fresh cache; health is not reported). */
function kindContext(ctx: OnlineContext): KindContext {
  return { cache: new SourceCache(), health: new SourceHealth(), env: ctx.env, archiveDir: '.' }
}

/** The geometry kinds each paint can draw. */
const DRAWS: Record<string, readonly string[]> = {
  circle: ['point'],
  icon: ['point'],
  line: ['line', 'polygon'],
  fill: ['polygon'],
}

function geometryKind(type: string): 'point' | 'line' | 'polygon' | null {
  if (/point/i.test(type)) return 'point'
  if (/line/i.test(type)) return 'line'
  if (/polygon/i.test(type)) return 'polygon'
  return null
}

/** Map layers whose paint cannot draw any geometry kind the source holds, at their paint's line. */
function paintFindings(ctx: OnlineContext, kinds: ReadonlySet<string>, what: string): OnlineFinding[] {
  if (kinds.size === 0) return []
  return ctx.paints.flatMap((p) => {
    const draws = DRAWS[p.name]
    if (!draws || draws.some((k) => kinds.has(k))) return []
    return [{ at: p.at, absolute: true, message: `a ${p.name} paint cannot draw the ${[...kinds].join('/')} geometries of ${what}` }]
  })
}

/** Attribute names the YAML reads (popup fields) that the server does not list, at their lines. */
function fieldFindings(ctx: OnlineContext, known: ReadonlySet<string>, what: string): OnlineFinding[] {
  if (known.size === 0) return []
  const list = [...known].slice(0, 12).join(', ')
  return ctx.fields
    .filter((f) => !known.has(f.name))
    .map((f) => ({ at: f.at, absolute: true, message: `property '${f.name}' is not in ${what} (properties: ${list})` }))
}

/** ArcGIS FeatureServer layer: it exists (layer JSON), has geometry a paint draws, outFields and popup fields exist. */
export const checkArcgisFeatureServer: OnlineCheck<ArcgisFeatureServerSource> = async (source, ctx) => {
  const url = baseUrl(source, ctx.env)
  url.searchParams.set('f', 'json')
  const { json } = await upstreamJson(source, ctx.env, new SourceCache(), url)
  const info = isObject(json) ? json : {}
  const findings: OnlineFinding[] = []
  const fields = new Set(
    (Array.isArray(info.fields) ? (info.fields as unknown[]) : []).flatMap((f) =>
      isObject(f) && typeof f.name === 'string' ? [f.name] : [],
    ),
  )
  const geometry = typeof info.geometryType === 'string' ? info.geometryType : null
  if (geometry === null) {
    findings.push({ at: ['url'], message: `the layer has no geometry (${String(info.type ?? 'not a feature layer')}): nothing to draw` })
  }
  const list = [...fields].slice(0, 12).join(', ')
  for (const name of (source.outFields ?? '*').split(',').map((s) => s.trim())) {
    if (name !== '*' && !fields.has(name)) findings.push({ at: ['outFields'], message: `field '${name}' is not in the layer (fields: ${list})` })
  }
  const kind = geometry && geometryKind(geometry)
  findings.push(...paintFindings(ctx, new Set(kind ? [kind] : []), `the layer (${geometry})`))
  findings.push(...fieldFindings(ctx, fields, 'the layer'))
  return findings
}

/** OGC API – Features collection: the collection JSON reads, property names from /queryables or a sample item, geometry from it. */
export const checkOgcFeatures: OnlineCheck<OgcFeaturesSource> = async (source, ctx) => {
  const cache = new SourceCache()
  // Asked as JSON as the proxy asks (ogcJson: f=json, GeoServer's f=application/geo+json, the Accept header).
  const read = async (suffix: string, params: Record<string, string> = {}) => {
    const url = baseUrl(source, ctx.env)
    url.pathname += suffix
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    return (await ogcJson(source, ctx.env, cache, url)).json
  }
  const json = await read('')
  if (!isObject(json) || (typeof json.id !== 'string' && !Array.isArray(json.links))) {
    return [{ at: ['url'], message: 'the URL does not answer an OGC API collection document' }]
  }
  const sample = featuresOf(await read('/items', { limit: '5' }), 'items answer')
  const names = new Set<string>()
  try {
    const queryables = await read('/queryables')
    if (isObject(queryables) && isObject(queryables.properties)) for (const k of Object.keys(queryables.properties)) names.add(k)
  } catch {
    // No queryables (optional in the standard): the sample items' properties say instead.
  }
  if (names.size === 0) for (const f of sample) for (const k of Object.keys(f.properties ?? {})) names.add(k)
  const kinds = new Set(sample.flatMap((f) => [geometryKind(f.geometry.type)].filter((k) => k !== null)))
  return [...paintFindings(ctx, kinds, 'the collection'), ...fieldFindings(ctx, names, 'the collection')]
}

/** GeoJSON file: reachable, parses as a FeatureCollection, geometry a paint draws, popup fields exist. */
export const checkGeojson: OnlineCheck<GeojsonSource> = async (source, ctx) => {
  const { json } = await upstreamJson(source, ctx.env, new SourceCache(), baseUrl(source, ctx.env))
  let features: Feature[]
  try {
    features = featuresOf(json, 'document')
  } catch (e) {
    return [{ at: ['url'], message: (e as Error).message }]
  }
  const kinds = new Set(features.flatMap((f) => [geometryKind(f.geometry.type)].filter((k) => k !== null)))
  const names = new Set(features.slice(0, 100).flatMap((f) => Object.keys(f.properties ?? {})))
  return [...paintFindings(ctx, kinds, 'the file'), ...fieldFindings(ctx, names, 'the file')]
}

/** YAML zooms outside the server's: findings at minzoom / maxzoom. */
function zoomFindings(source: { minzoom: number; maxzoom: number }, min: number | undefined, max: number | undefined, what: string): OnlineFinding[] {
  const out: OnlineFinding[] = []
  if (min !== undefined && source.minzoom < min) out.push({ at: ['minzoom'], message: `minzoom ${source.minzoom} is below ${what}'s first zoom ${min}` })
  if (max !== undefined && source.maxzoom > max) out.push({ at: ['maxzoom'], message: `maxzoom ${source.maxzoom} is above ${what}'s last zoom ${max} (the map overzooms; set maxzoom ${max})` })
  return out
}

/** TileJSON: the document reads, has a tiles template on the source's host, zooms cover the YAML's, sourceLayer names exist. */
export const checkTilejson: OnlineCheck<TilejsonSource> = async (source, ctx) => {
  if (/\{z\}/.test(source.url)) return []
  const k = kindContext(ctx)
  const url = filledUrl(source.url, ctx.env)
  const got = await fetchFor(k, source, url)
  if (got.status !== 200) throw new UpstreamFailure(502, `the TileJSON document answered HTTP ${got.status}`)
  let set
  try {
    set = parseTileJson(got.body, url)
  } catch (e) {
    return [{ at: ['url'], message: (e as Error).message }]
  }
  const findings = zoomFindings(source, set.minzoom, set.maxzoom, 'the TileJSON')
  if (new URL(set.template.replace(/[{}]/g, '')).host !== url.host) {
    findings.push({ at: ['url'], message: `the tiles are on ${new URL(set.template.replace(/[{}]/g, '')).host}, not the document's host ${url.host} (refused by the proxy)` })
  }
  const layers = new Set(set.vectorLayers.map((l) => l.id))
  if (layers.size > 0) {
    for (const l of ctx.sourceLayers) {
      if (!layers.has(l.name)) findings.push({ at: l.at, absolute: true, message: `vector layer '${l.name}' is not in the TileJSON (vector_layers: ${[...layers].join(', ')})` })
    }
  }
  return findings
}

const RASTER_TILES = new Set([TileType.Png, TileType.Jpeg, TileType.Webp, TileType.Avif])

/** PMTiles by URL: the header (one range request) reads, its tile type suits the paints, its zooms cover the YAML's. */
export const checkPmtiles: OnlineCheck<PmtilesSource> = async (source, ctx) => {
  if (source.url === undefined) return []
  const got = await fetchFor(kindContext(ctx), source, filledUrl(source.url, ctx.env), { offset: 0, length: 127 })
  if (got.status !== 200) throw new UpstreamFailure(502, `the archive answered HTTP ${got.status} to a range request`)
  if (got.body.length < 127 || got.body.subarray(0, 7).toString('latin1') !== 'PMTiles') {
    return [{ at: ['url'], message: 'the URL does not answer a PMTiles archive (no PMTiles header)' }]
  }
  const header = bytesToHeader(got.body.buffer.slice(got.body.byteOffset, got.body.byteOffset + 127) as ArrayBuffer)
  const vector = header.tileType === TileType.Mvt
  const raster = RASTER_TILES.has(header.tileType)
  const findings: OnlineFinding[] = []
  if (!vector && !raster) findings.push({ at: ['url'], message: `the archive's tile type ${header.tileType} is not served (MVT, PNG, JPEG, WebP, AVIF)` })
  for (const p of ctx.paints) {
    if (vector && p.name === 'raster') findings.push({ at: p.at, absolute: true, message: 'a raster paint cannot draw the vector (MVT) tiles of the archive' })
    if (raster && p.name !== 'raster') findings.push({ at: p.at, absolute: true, message: `a ${p.name} paint cannot draw the raster tiles of the archive (use a raster paint)` })
  }
  return [...findings, ...zoomFindings(source, header.minZoom, header.maxZoom, 'the archive')]
}

/** COG: a tiled GeoTIFF with overviews, in a projection we read (EPSG:4326 or 3857), with the band coloured. */
export const checkCog: OnlineCheck<CogSource> = async (source, ctx) => {
  let cog
  try {
    cog = await openCog(kindContext(ctx), source)
  } catch (e) {
    if (e instanceof UpstreamFailure && /GeoTIFF is in/.test(e.message)) return [{ at: ['url'], message: `${e.message} (unsupported projection)` }]
    if (e instanceof UpstreamFailure) throw e
    return [{ at: ['url'], message: `the file is not a readable GeoTIFF (${(e as Error).message.split('\n')[0]})` }]
  }
  const findings: OnlineFinding[] = []
  const first = cog.images[0]!
  if (!first.isTiled) findings.push({ at: ['url'], message: 'the GeoTIFF is not tiled (not a Cloud Optimized GeoTIFF: every read fetches whole strips)' })
  if (cog.images.length < 2 && Math.max(first.getWidth(), first.getHeight()) > 512) {
    findings.push({ at: ['url'], message: `the GeoTIFF has no overviews (${first.getWidth()} × ${first.getHeight()}): low zooms read the full image` })
  }
  const band = source.band ?? 1
  if (band > first.getSamplesPerPixel()) findings.push({ at: ['band'], message: `the GeoTIFF has ${first.getSamplesPerPixel()} band(s); band ${band} asked` })
  return findings
}

/** XYZ: one tile at minzoom (the one holding the map's home point) answers an image. */
export const checkXyz: OnlineCheck<XyzSource> = async (source, ctx) => {
  const z = source.minzoom
  const { x, y } = tilePixel(ctx.home[0], ctx.home[1], z)
  const url = await tileUrl(source, z, x, y, ctx.env)
  const answer = await fetchUpstream({
    url,
    allowedHost: allowedHost(source, ctx.env),
    headers: upstreamHeaders(source, ctx.env),
    timeoutMs: source.timeoutMs ?? 10_000,
    maxBytes: source.maxBytes ?? 5_000_000,
    allowPrivateNetwork: source.allowPrivateNetwork === true,
  })
  const type = String(answer.headers['content-type'] ?? 'no content type')
  if (answer.status !== 200) return [{ at: ['url'], message: `tile ${z}/${x}/${y} answered HTTP ${answer.status}` }]
  if (!/^image\//i.test(type)) return [{ at: ['url'], message: `tile ${z}/${x}/${y} answered ${type}, not an image` }]
  return []
}

