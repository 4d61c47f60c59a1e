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
