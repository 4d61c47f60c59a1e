import { createRng } from '../../src/demo/prng'

export interface BenchTile {
  z: number
  x: number
  y: number
  set: 'z6-8' | 'z10-14'
}

const lon2x = (lon: number, z: number): number => Math.floor(((lon + 180) / 360) * 2 ** z)
const lat2y = (lat: number, z: number): number => {
  const r = (lat * Math.PI) / 180
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z)
}

/**
 * The peer's tile mix: every z6–z8 tile over the bbox, then `n` distinct random z10–z14 tiles
 * near the given places (33/53/84/145/185 per zoom for n = 500, like gen-data.mjs), drawn with `seed`.
 */
export function benchTiles(
  bbox: readonly number[],
  places: readonly { lon: number; lat: number }[],
  n = 500,
  seed = 42,
): BenchTile[] {
  const [w, s, e, north] = bbox as [number, number, number, number]
  const out: BenchTile[] = []
  for (let z = 6; z <= 8; z++)
    for (let x = lon2x(w, z); x <= lon2x(e, z); x++)
      for (let y = lat2y(north, z); y <= lat2y(s, z); y++) out.push({ z, x, y, set: 'z6-8' })
  const share = [33, 53, 84, 145, 185].map((k) => Math.round((k * n) / 500))
  const rng = createRng(seed, 'bench-tiles')
  const seen = new Set<string>()
  share.forEach((count, i) => {
    const z = 10 + i
    let made = 0
    for (let tries = 0; made < count && tries < count * 50; tries++) {
      const p = places[Math.floor(rng() * places.length)] as { lon: number; lat: number }
      const spread = 0.15 * rng.normal()
      const x = lon2x(p.lon + spread, z)
      const y = lat2y(p.lat + 0.15 * rng.normal(), z)
      const key = `${z}/${x}/${y}`
      if (seen.has(key)) continue
      seen.add(key)
      out.push({ z, x, y, set: 'z10-14' })
      made += 1
    }
  })
  return out
}
