/** A grib2json record as the wind grid endpoint serves it (U: parameterNumber 2, V: 3). */
export interface WindRecordLike {
  readonly header: {
    readonly parameterNumber: number
    readonly nx: number
    readonly ny: number
    readonly lo1: number
    readonly la1: number
    readonly dx: number
    readonly dy: number
  }
  readonly data: readonly (number | null)[]
}

export interface WindField {
  /** [u, v] in mph at a point (bilinear), or null outside the grid or where there is no value. */
  sample(lon: number, lat: number): readonly [number, number] | null
  readonly bounds: {
    readonly west: number
    readonly east: number
    readonly south: number
    readonly north: number
  }
}

/** Builds a sampler from the U and V records (rows from the north, west to east). */
export function windField(records: readonly WindRecordLike[]): WindField {
  const u = records.find((r) => r.header.parameterNumber === 2)
  const v = records.find((r) => r.header.parameterNumber === 3)
  if (!u || !v) throw new Error('wind grid needs U (parameterNumber 2) and V (3) records')
  const { nx, ny, lo1, la1, dx, dy } = u.header
  if (u.data.length !== nx * ny || v.data.length !== nx * ny)
    throw new Error('wind grid data length does not match nx × ny')
  const at = (data: readonly (number | null)[], i: number, j: number) => data[j * nx + i] ?? null
  return {
    bounds: { west: lo1, east: lo1 + (nx - 1) * dx, north: la1, south: la1 - (ny - 1) * dy },
    sample(lon, lat) {
      const fi = (lon - lo1) / dx
      const fj = (la1 - lat) / dy
      if (fi < 0 || fj < 0 || fi > nx - 1 || fj > ny - 1) return null
      const i = Math.min(Math.floor(fi), nx - 2)
      const j = Math.min(Math.floor(fj), ny - 2)
      const tx = fi - i
      const ty = fj - j
      const out: number[] = []
      for (const data of [u.data, v.data]) {
        const a = at(data, i, j)
        const b = at(data, i + 1, j)
        const c = at(data, i, j + 1)
        const d = at(data, i + 1, j + 1)
        if (a === null || b === null || c === null || d === null) return null
        out.push((a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty)
      }
      return [out[0] ?? 0, out[1] ?? 0]
    },
  }
}

/** Colour bucket index of a speed: 10 mph steps (config) capped at the top step. */
export function speedBucket(speedMph: number, stepMph: number, maxMph: number): number {
  const capped = Math.min(Math.max(speedMph, 0), maxMph)
  return Math.floor(capped / stepMph)
}
