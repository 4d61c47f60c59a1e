import { toFiniteNumber } from '../../shared/format'

/** [minLon, minLat, maxLon, maxLat] */
export type Bbox = readonly [number, number, number, number]

/**
 * A record's bbox as four numbers, from an array, a JSON array string or a "a,b,c,d" string;
 * null if it is missing or not a sane lon/lat box.
 */
export function parseBbox(value: unknown): Bbox | null {
  let parts: unknown = value
  if (typeof value === 'string') {
    const text = value.trim()
    try {
      parts = text.startsWith('[') ? JSON.parse(text) : text.split(/[\s,]+/)
    } catch {
      return null
    }
  }
  if (!Array.isArray(parts) || parts.length !== 4) return null
  const numbers = parts.map(toFiniteNumber)
  const [minLon, minLat, maxLon, maxLat] = numbers
  if (minLon == null || minLat == null || maxLon == null || maxLat == null) return null
  if (minLon > maxLon || minLat > maxLat || minLat < -90 || maxLat > 90) return null
  return [minLon, minLat, maxLon, maxLat]
}
