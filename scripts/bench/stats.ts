export interface Summary {
  n: number
  p50: number
  p95: number
  max: number
  mean: number
}

export function summarize(values: readonly number[]): Summary {
  const v = [...values].sort((a, b) => a - b)
  const q = (p: number): number => v[Math.min(v.length - 1, Math.max(0, Math.ceil(p * v.length) - 1))] ?? 0
  const r = (x: number): number => Math.round(x * 10) / 10
  return {
    n: v.length,
    p50: r(q(0.5)),
    p95: r(q(0.95)),
    max: r(v[v.length - 1] ?? 0),
    mean: r(v.reduce((a, b) => a + b, 0) / (v.length || 1)),
  }
}
