import { offset } from './geography'
import type { Rng } from './prng'

const r6 = (v: number): number => Math.round(v * 1e6) / 1e6

function pt(lon: number, lat: number, dx: number, dy: number): number[] {
  const [x, y] = offset(lon, lat, dx, dy)
  return [r6(x), r6(y)]
}

/** An irregular closed ring of about `radiusM` around a centre (smooth radial noise). */
export function blob(
  rng: Rng,
  lon: number,
  lat: number,
  radiusM: number,
  vertices = 40,
  roughness = 0.25,
): number[][] {
  const phases = [rng.range(0, 6.3), rng.range(0, 6.3), rng.range(0, 6.3)]
  const amps = [roughness, roughness * 0.6, roughness * 0.35].map((a) => a * rng.range(0.5, 1))
  const ring: number[][] = []
  for (let i = 0; i < vertices; i++) {
    const t = (i / vertices) * Math.PI * 2
    let r = 1
    amps.forEach((a, k) => (r += a * Math.sin((k + 2) * t + (phases[k] as number))))
    ring.push(pt(lon, lat, Math.cos(t) * radiusM * r, Math.sin(t) * radiusM * r))
  }
  ring.push(ring[0] as number[])
  return ring
}

/** An ellipse ring, semi-axes `a` (along `bearingDeg`, clockwise from north) and `b`, in metres. */
export function ellipse(
  lon: number,
  lat: number,
  a: number,
  b: number,
  bearingDeg: number,
  vertices = 48,
): number[][] {
  const th = (bearingDeg * Math.PI) / 180
  const ring: number[][] = []
  for (let i = 0; i < vertices; i++) {
    const t = (i / vertices) * Math.PI * 2
    const u = Math.cos(t) * a
    const v = Math.sin(t) * b
    ring.push(pt(lon, lat, u * Math.sin(th) + v * Math.cos(th), u * Math.cos(th) - v * Math.sin(th)))
  }
  ring.push(ring[0] as number[])
  return ring
}

/** A rotated rectangle footprint `w` × `h` metres. */
export function rectangle(lon: number, lat: number, w: number, h: number, angle: number): number[][] {
  const c = Math.cos(angle)
  const s = Math.sin(angle)
  const corners = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ].map(([x, y]) =>
    pt(lon, lat, (x as number) * c - (y as number) * s, (x as number) * s + (y as number) * c),
  )
  return [...corners, corners[0] as number[]]
}

/** A meandering line from a to b with about one vertex per `stepM` metres. */
export function meander(
  rng: Rng,
  a: readonly number[],
  b: readonly number[],
  stepM: number,
  wiggle = 0.04,
): number[][] {
  const [x0, y0] = a as [number, number]
  const [x1, y1] = b as [number, number]
  const dx = x1 - x0
  const dy = y1 - y0
  const len = Math.hypot(dx * 91_000, dy * 111_000)
  const n = Math.max(2, Math.min(400, Math.round(len / stepM)))
  const out: number[][] = []
  let drift = 0
  for (let i = 0; i <= n; i++) {
    const t = i / n
    drift = drift * 0.85 + rng.normal(0, wiggle)
    const bend = Math.sin(Math.PI * t) * drift
    out.push([r6(x0 + dx * t - dy * bend), r6(y0 + dy * t + dx * bend)])
  }
  return out
}

/** A feeder: a walk on a street grid from a start point, `steps` legs of `legM` metres. */
export function gridWalk(
  rng: Rng,
  start: readonly number[],
  steps: number,
  legM: number,
  angle: number,
): number[][] {
  let [lon, lat] = start as [number, number]
  const out: number[][] = [[r6(lon), r6(lat)]]
  let dir = rng.int(0, 3)
  for (let i = 0; i < steps; i++) {
    if (rng() < 0.35) dir = (dir + (rng() < 0.5 ? 1 : 3)) % 4
    const t = angle + (dir * Math.PI) / 2
    const d = legM * rng.range(0.6, 1.4)
    ;[lon, lat] = offset(lon, lat, Math.cos(t) * d, Math.sin(t) * d)
    out.push([r6(lon), r6(lat)])
  }
  return out
}

export function ringAreaM2(ring: readonly number[][]): number {
  const lat0 = ((ring[0]?.[1] ?? 0) * Math.PI) / 180
  const kx = 111_320 * Math.cos(lat0)
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const p = ring[i] as number[]
    const q = ring[j] as number[]
    a +=
      ((q[0] as number) * kx + (p[0] as number) * kx) *
      ((q[1] as number) * 111_320 - (p[1] as number) * 111_320)
  }
  return Math.abs(a / 2)
}

export const SQFT_PER_M2 = 10.7639
export const M2_PER_ACRE = 4046.86
