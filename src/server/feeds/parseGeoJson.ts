import type { Feature, Geometry } from 'geojson'
import type { FeedRecord, ParsedFeed } from './feedTypes'
import { FeedFormatError } from './FeedFormatError'

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Parses JSON text; anything else (an HTML page, a truncated body) is a FeedFormatError. */
export function parseJsonBody(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (e) {
    const head = text.trimStart().slice(0, 15)
    throw new FeedFormatError(
      `not ${what}: ${head.startsWith('<') ? `the body is markup ('${head}')` : e instanceof Error ? e.message : String(e)}`,
    )
  }
}

/** Records of a FeatureCollection's features (feature `id` available as `id` when properties lack it). */
export function featureRecords(features: readonly unknown[]): FeedRecord[] {
  return features.map((f, i): FeedRecord => {
    const feature = isRecord(f) ? (f as Partial<Feature>) : {}
    const props: Record<string, unknown> = isRecord(feature.properties) ? { ...feature.properties } : {}
    if (props.id === undefined && feature.id !== undefined) props.id = feature.id
    const geometry = isRecord(feature.geometry) ? (feature.geometry as Geometry) : null
    return { n: i + 1, props, geometry }
  })
}

/**
 * A GeoJSON FeatureCollection (WFIGS, NWS alerts, HIFLD, HMS). An ArcGIS error answer
 * (`{"error": {...}}` with HTTP 200) or any other JSON fails the run.
 */
export function parseGeoJson(text: string): ParsedFeed {
  const doc = parseJsonBody(text, 'GeoJSON')
  if (isRecord(doc) && isRecord(doc.error))
    throw new FeedFormatError(`the service answered an error: ${JSON.stringify(doc.error).slice(0, 200)}`)
  if (!isRecord(doc) || doc.type !== 'FeatureCollection' || !Array.isArray(doc.features))
    throw new FeedFormatError('not a GeoJSON FeatureCollection')
  return { records: featureRecords(doc.features), unit: 'feature' }
}
