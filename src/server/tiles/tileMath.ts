/** Slippy-map tile maths (Web Mercator, XYZ). */

export function tileToLon(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180
}

export function tileToLat(y: number, z: number): number {
  const n = Math.PI - (2 * Math.PI * y) / 2 ** z
  return (180 / Math.PI) * Math.atan(Math.sinh(n))
}

/** Lon/lat bbox [west, south, east, north] of a tile grown by `buffer` (fraction of the tile side). */
export function tileBounds(z: number, x: number, y: number, buffer = 0): [number, number, number, number] {
  return [
    tileToLon(x - buffer, z),
    tileToLat(y + 1 + buffer, z),
    tileToLon(x + 1 + buffer, z),
    tileToLat(y - buffer, z),
  ]
}

export function isValidTile(z: number, x: number, y: number): boolean {
  const n = 2 ** z
  return (
    Number.isInteger(z) && Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < n && y < n
  )
}

/** Deepest zoom any tile route accepts; with it, the largest tile column or row (schema bounds). */
export const MAX_TILE_ZOOM = 24
export const MAX_TILE_INDEX = 2 ** MAX_TILE_ZOOM - 1

/** The path parameters of a z/x/y tile route. */
export interface TileParams {
  z: number
  x: number
  y: number
}

/** The JSON Schema of a z/x/y tile route's path parameters: whole numbers within the deepest zoom. */
export const TILE_PARAMS_SCHEMA = {
  type: 'object',
  required: ['z', 'x', 'y'],
  properties: {
    z: { type: 'integer', minimum: 0, maximum: MAX_TILE_ZOOM, description: 'zoom' },
    x: { type: 'integer', minimum: 0, maximum: MAX_TILE_INDEX, description: 'tile column' },
    y: { type: 'integer', minimum: 0, maximum: MAX_TILE_INDEX, description: 'tile row' },
  },
} as const
