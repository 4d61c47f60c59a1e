import type { Feature } from 'geojson'
import type { GeometryKind } from '../store/catalog'
import { decodeParts, partsToGeometry } from '../store/geometryCodec'
import type { OgcFeatureRow } from '../store/ogcFeatures'

/** A stored row as a GeoJSON Feature: `id`, geometry in CRS84 and the dataset's raw field values. */
export function featureJson(row: OgcFeatureRow, kind: GeometryKind): Feature {
  return {
    type: 'Feature',
    id: row.id,
    geometry: partsToGeometry(decodeParts(row.geom), kind),
    properties: row.properties,
  }
}
