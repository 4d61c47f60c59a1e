import { DOMParser } from '@xmldom/xmldom'

/** One feature of a raster source's point query, as our popup shows it. */
export interface InfoFeature {
  /** The upstream layer the feature is from, when the answer says. */
  readonly layer?: string
  readonly attributes: Record<string, string | number | boolean | null>
}

/** The answer of `/api/sources/<id>/info`: the features at the clicked point (at most MAX_FEATURES). */
export interface InfoAnswer {
  readonly source: string
  readonly features: readonly InfoFeature[]
}

export const MAX_FEATURES = 10
export const MAX_ATTRIBUTES = 50
export const MAX_VALUE_CHARS = 500

/** The upstream answer cannot be read as features (HTML, a ServiceException, broken JSON/XML). */
export class UnreadableInfo extends Error {}

/**
 * Reads a WMS GetFeatureInfo answer (GeoJSON, GML — MapServer's msGMLOutput or a WFS-style
 * featureMember collection — or MapServer/GeoServer plain text) or an ArcGIS `identify` answer
 * (`{ results: [{ layerName, attributes }] }`) into features with plain attributes, bounded in
 * count, attributes per feature and value length. Geometry is dropped: the popup shows attributes.
 */
export function parseFeatureInfo(body: Buffer, contentType: string | undefined): InfoFeature[] {
  const type = (contentType ?? '').toLowerCase()
  const text = body.toString('utf8')
  if (/json/.test(type) || /^\s*[{[]/.test(text)) return fromJson(text)
  if (/xml|gml/.test(type) || /^\s*</.test(text)) {
    if (/html/.test(type)) throw new UnreadableInfo('upstream answered HTML, not features')
    return fromXml(text)
  }
  if (/^text\/plain/.test(type)) return fromText(text)
  throw new UnreadableInfo(`upstream answered ${contentType ?? 'no content type'}, not features`)
}

type Value = string | number | boolean | null

function plain(v: unknown): Value {
  if (v === null || v === undefined) return null
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'boolean') return v
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  return s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS - 1)}…` : s
}

function bounded(entries: Iterable<[string, unknown]>): Record<string, Value> {
  const out: Record<string, Value> = {}
  let n = 0
  for (const [k, v] of entries) {
    if (n++ >= MAX_ATTRIBUTES) break
    out[k.slice(0, 100)] = plain(v)
  }
  return out
}

function fromJson(text: string): InfoFeature[] {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new UnreadableInfo('upstream answered JSON that does not parse')
  }
  const o = (doc ?? {}) as Record<string, unknown>
  if (Array.isArray(o.results)) {
    // ArcGIS identify
    return (o.results as Record<string, unknown>[]).slice(0, MAX_FEATURES).map((r) => ({
      ...(typeof r.layerName === 'string' ? { layer: r.layerName } : {}),
      attributes: bounded(Object.entries((r.attributes ?? {}) as Record<string, unknown>)),
    }))
  }
  if (o.error && typeof o.error === 'object') {
    const msg = (o.error as { message?: unknown }).message
    throw new UnreadableInfo(`upstream error: ${typeof msg === 'string' ? msg : 'unknown'}`)
  }
  const features = Array.isArray(o.features) ? o.features : o.type === 'Feature' ? [o] : null
  if (features === null) throw new UnreadableInfo('upstream JSON has no features')
  return (features as Record<string, unknown>[]).slice(0, MAX_FEATURES).map((f) => {
    const props = (f.properties ?? f.attributes ?? {}) as Record<string, unknown>
    const layer = typeof f.layerName === 'string' ? f.layerName : undefined
    return { ...(layer ? { layer } : {}), attributes: bounded(Object.entries(props)) }
  })
}

// Minimal DOM shapes of @xmldom/xmldom (its own types differ from lib.dom's).
interface XNode {
  readonly nodeType: number
  readonly nodeName: string
  readonly localName?: string | null
  readonly namespaceURI?: string | null
  readonly textContent: string | null
  readonly childNodes: ArrayLike<XNode>
}

const GML_NS = /^http:\/\/www\.opengis\.net\/gml/

function elements(node: XNode): XNode[] {
  return Array.from(node.childNodes).filter((c) => c.nodeType === 1)
}

function localName(n: XNode): string {
  return n.localName ?? n.nodeName.replace(/^.*:/, '')
}

/** A feature element's attributes: its child elements that hold only text (not GML, not geometry). */
function xmlAttributes(feature: XNode): Record<string, Value> {
  const leaves: [string, unknown][] = []
  for (const c of elements(feature)) {
    if (GML_NS.test(c.namespaceURI ?? '') || c.nodeName.startsWith('gml:')) continue
    if (elements(c).length > 0) continue
    leaves.push([localName(c), (c.textContent ?? '').trim()])
  }
  return bounded(leaves)
}

function fromXml(text: string): InfoFeature[] {
  let root: XNode | null
  try {
    const doc = new DOMParser({
      onError: (level: string, msg: string) => {
        if (level !== 'warning') throw new Error(msg)
      },
    }).parseFromString(text, 'text/xml')
    root = doc.documentElement as unknown as XNode | null
  } catch {
    throw new UnreadableInfo('upstream answered XML that does not parse')
  }
  if (!root) throw new UnreadableInfo('upstream answered an empty XML document')
  const rootName = localName(root)
  if (/ServiceException|ExceptionReport/i.test(rootName)) {
    throw new UnreadableInfo(`upstream error: ${(root.textContent ?? '').trim().slice(0, 200)}`)
  }
  const out: InfoFeature[] = []
  if (rootName === 'msGMLOutput') {
    // <msGMLOutput><NAME_layer><NAME_feature>…fields…</NAME_feature></NAME_layer></msGMLOutput>
    for (const layer of elements(root)) {
      const name = localName(layer).replace(/_layer$/, '')
      for (const f of elements(layer)) {
        if (!/_feature$/.test(localName(f))) continue
        if (out.length < MAX_FEATURES) out.push({ layer: name, attributes: xmlAttributes(f) })
      }
    }
    return out
  }
  // WFS/GML collections: featureMember / member / featureMembers hold the features.
  const walk = (n: XNode): void => {
    for (const c of elements(n)) {
      const name = localName(c)
      if (name === 'featureMember' || name === 'member') {
        for (const f of elements(c))
          if (out.length < MAX_FEATURES) out.push({ layer: localName(f), attributes: xmlAttributes(f) })
      } else if (name === 'featureMembers') {
        for (const f of elements(c))
          if (out.length < MAX_FEATURES) out.push({ layer: localName(f), attributes: xmlAttributes(f) })
      } else walk(c)
    }
  }
  walk(root)
  return out
}

/**
 * Plain-text feature info: MapServer's (`Layer 'x'` / `Feature N:` / `key = 'value'`) and
 * GeoServer's (`Results for FeatureType 'x':` / `key = value` / `-----` between features).
 */
function fromText(text: string): InfoFeature[] {
  const out: { layer?: string; attributes: [string, unknown][] }[] = []
  let layer: string | undefined
  let current: { layer?: string; attributes: [string, unknown][] } | null = null
  const start = () => {
    current = { ...(layer ? { layer } : {}), attributes: [] }
    out.push(current)
    return current
  }
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    const layerMatch = /^(?:Layer|Results for FeatureType) '([^']*)'/.exec(line)
    if (layerMatch) {
      layer = layerMatch[1]
      current = null
      continue
    }
    if (/^Feature\b.*:$/.test(line) || /^-{5,}$/.test(line)) {
      current = null
      continue
    }
    const kv = /^([^=\s][^=]*?)\s*=\s*(.*)$/.exec(line)
    if (!kv) continue
    const value = kv[2]!.replace(/^'(.*)'$/, '$1')
    const target: { attributes: [string, unknown][] } = current ?? start()
    target.attributes.push([kv[1]!, value])
  }
  return out
    .filter((f) => f.attributes.length > 0)
    .slice(0, MAX_FEATURES)
    .map((f) => ({ ...(f.layer ? { layer: f.layer } : {}), attributes: bounded(f.attributes) }))
}
