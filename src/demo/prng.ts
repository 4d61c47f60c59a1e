/** Seeded pseudo-random numbers: the same seed and stream name give the same sequence. */
export interface Rng {
  (): number
  range(min: number, max: number): number
  int(min: number, max: number): number
  normal(mean?: number, sd?: number): number
  pick<T>(items: readonly T[]): T
  weighted<T>(items: readonly T[], weight: (t: T) => number): T
}

function hashString(s: string): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}

/** mulberry32 over (seed, stream), with helpers. */
export function createRng(seed: number, stream: string): Rng {
  let a = (seed ^ hashString(stream)) >>> 0
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const rng = next as Rng
  rng.range = (min, max) => min + (max - min) * next()
  rng.int = (min, max) => Math.floor(min + (max - min + 1) * next())
  rng.normal = (mean = 0, sd = 1) => {
    const u = Math.max(next(), 1e-12)
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next())
  }
  rng.pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  rng.weighted = <T>(items: readonly T[], weight: (t: T) => number): T => {
    const total = items.reduce((s, t) => s + weight(t), 0)
    let r = next() * total
    for (const t of items) {
      r -= weight(t)
      if (r <= 0) return t
    }
    return items[items.length - 1] as T
  }
  return rng
}

/** Rounds to `d` decimals (keeps generated values short and stable). */
export function round(v: number, d = 2): number {
  const k = 10 ** d
  return Math.round(v * k) / k
}
