/**
 * Douglas–Peucker importance of every vertex of one ring or line, computed once per dataset (as
 * geojson-vt does at index time): `imp[i]` is the squared distance (in the coordinates' units) at
 * which vertex i stops being needed; the two ends get 1 (always kept). A tile at tolerance t keeps
 * the vertices with `imp > t²`, so every zoom's simplification is one comparison per vertex.
 *
 * `xy` holds interleaved x, y; the ring/line is vertices `first..last` (inclusive).
 */
export function simplifyImportance(xy: Float64Array, imp: Float32Array, first: number, last: number): void {
  imp[first] = 1
  imp[last] = 1
  if (last - first < 2) return
  const stack: number[] = [first, last]
  while (stack.length > 0) {
    const l = stack.pop() as number
    const f = stack.pop() as number
    const ax = xy[2 * f] as number
    const ay = xy[2 * f + 1] as number
    const bx = xy[2 * l] as number
    const by = xy[2 * l + 1] as number
    let maxSq = -1
    let index = -1
    for (let i = f + 1; i < l; i++) {
      const d = segmentSqDist(xy[2 * i] as number, xy[2 * i + 1] as number, ax, ay, bx, by)
      if (d > maxSq) {
        maxSq = d
        index = i
      }
    }
    if (index < 0) continue
    // Clamp so an interior vertex never outranks the ends (a zero distance still orders vertices).
    imp[index] = Math.min(maxSq, 0.5)
    if (index - f > 1) stack.push(f, index)
    if (l - index > 1) stack.push(index, l)
  }
}

/** Squared distance from (px, py) to the segment (ax, ay)–(bx, by). */
export function segmentSqDist(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  let x = ax
  let y = ay
  let dx = bx - x
  let dy = by - y
  if (dx !== 0 || dy !== 0) {
    const t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
    if (t > 1) {
      x = bx
      y = by
    } else if (t > 0) {
      x += dx * t
      y += dy * t
    }
  }
  dx = px - x
  dy = py - y
  return dx * dx + dy * dy
}
