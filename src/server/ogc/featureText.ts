import type { GeometryKind } from '../store/catalog'
import type { OgcFeatureRow } from '../store/ogcFeatures'

/** The Float64 view of a stored geometry blob (see geometryCodec.encodeGeometry). */
function floats(blob: Uint8Array): Float64Array {
  return blob.byteOffset % 8 === 0
    ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8)
    : new Float64Array(blob.slice().buffer)
}

/**
 * A stored row as GeoJSON Feature text, written straight from the geometry blob: the same JSON as
 * `JSON.stringify(featureJson(row, kind))` (single types for one part, multi types otherwise)
 * without building the coordinate arrays — the items pages' hot path.
 */
export function featureText(row: OgcFeatureRow, kind: GeometryKind): string {
  const a = floats(row.geom)
  let k = 0
  const nParts = a[k++] as number
  const parts: string[] = []
  for (let i = 0; i < nParts; i++) {
    const nRings = a[k++] as number
    const rings: string[] = []
    for (let r = 0; r < nRings; r++) {
      const n = a[k++] as number
      const pts = new Array<string>(n)
      for (let j = 0; j < n; j++) {
        pts[j] = `[${String(a[k])},${String(a[k + 1])}]`
        k += 2
      }
      rings.push(kind === 'point' ? (pts[0] ?? '[0,0]') : `[${pts.join(',')}]`)
    }
    // A point part is its first position; a line part its first ring; a polygon part its rings.
    parts.push(
      kind === 'polygon'
        ? `[${rings.join(',')}]`
        : kind === 'line'
          ? (rings[0] ?? '[]')
          : (rings[0] ?? '[0,0]'),
    )
  }
  const single = nParts === 1
  const type =
    kind === 'point'
      ? single
        ? 'Point'
        : 'MultiPoint'
      : kind === 'line'
        ? single
          ? 'LineString'
          : 'MultiLineString'
        : single
          ? 'Polygon'
          : 'MultiPolygon'
  const coordinates = single ? (parts[0] as string) : `[${parts.join(',')}]`
  return `{"type":"Feature","id":${row.id},"geometry":{"type":"${type}","coordinates":${coordinates}},"properties":${JSON.stringify(row.properties)}}`
}
