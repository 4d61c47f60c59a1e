import type { Geometry, Position } from 'geojson'

/** Whether a lon/lat box meets a geometry's box (points: inside, edges included). */
export function geometryInBox(g: Geometry, box: readonly number[]): boolean {
  const [w, s, e, n] = box as [number, number, number, number]
  if (g.type === 'Point') {
    const [x, y] = g.coordinates as [number, number]
    return x >= w && x <= e && y >= s && y <= n
  }
  let minx = Infinity
  let miny = Infinity
  let maxx = -Infinity
  let maxy = -Infinity
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      const [x, y] = c as [number, number]
      if (x < minx) minx = x
      if (x > maxx) maxx = x
      if (y < miny) miny = y
      if (y > maxy) maxy = y
    } else if (Array.isArray(c)) for (const p of c) visit(p)
  }
  if (g.type === 'GeometryCollection')
    for (const part of g.geometries) visit('coordinates' in part ? part.coordinates : [])
  else visit(g.coordinates)
  if (minx === Infinity) return false
  return maxx >= w && minx <= e && maxy >= s && miny <= n
}

/** A 24-sided polygon of `radius` metres around a point (an incident without a perimeter). */
export function circleAround(center: Position, radius: number): Geometry {
  const [lon, lat] = center as [number, number]
  const dLat = radius / 111_320
  const dLon = radius / (111_320 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01))
  const ring: Position[] = []
  for (let i = 0; i <= 24; i++) {
    const a = ((i % 24) / 24) * 2 * Math.PI
    ring.push([
      Math.round((lon + dLon * Math.cos(a)) * 1e7) / 1e7,
      Math.round((lat + dLat * Math.sin(a)) * 1e7) / 1e7,
    ])
  }
  return { type: 'Polygon', coordinates: [ring] }
}

/** The first position of a geometry (the key of a point record). */
export function firstPosition(g: Geometry | null): Position | undefined {
  if (!g || g.type === 'GeometryCollection') return undefined
  let c: unknown = g.coordinates
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0]
  return Array.isArray(c) ? (c as Position) : undefined
}
