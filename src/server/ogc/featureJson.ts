import type { Feature, Geometry } from 'geojson'
import type { GeometryKind } from '../store/catalog'
import { decodeParts, partsToGeometry } from '../store/geometryCodec'
import type { OgcFeatureRow } from '../store/ogcFeatures'

/** A stored row as a GeoJSON Feature: `id`, geometry in CRS84 (null for a record without one) and the dataset's raw field values. */
export function featureJson(row: OgcFeatureRow, kind: GeometryKind): Feature<Geometry | null> {
  const parts = decodeParts(row.geom)
  return {
    type: 'Feature',
    id: row.id,
    // A record kept without geometry (zone-only alert): GeoJSON's null geometry.
    geometry: parts.length === 0 ? null : partsToGeometry(parts, kind),
    properties: row.properties,
  }
}
