import type { FeedUnit } from '../../shared/config'

/** Unit names as feeds spell them (Synoptic UNITS, MesoWest units row) → our unit ids. */
const ALIASES: Record<string, FeedUnit> = {
  celsius: 'celsius',
  c: 'celsius',
  '°c': 'celsius',
  fahrenheit: 'fahrenheit',
  f: 'fahrenheit',
  '°f': 'fahrenheit',
  kelvin: 'kelvin',
  k: 'kelvin',
  'm/s': 'm/s',
  'meters/second': 'm/s',
  mph: 'mph',
  'miles/hour': 'mph',
  'km/h': 'km/h',
  kph: 'km/h',
  knots: 'knots',
  kt: 'knots',
  mm: 'mm',
  millimeters: 'mm',
  in: 'in',
  inches: 'in',
  m: 'm',
  meters: 'm',
  ft: 'ft',
  feet: 'ft',
  km: 'km',
  mi: 'mi',
  miles: 'mi',
}

/** Our unit id for a feed's unit label, or undefined when it is not one we convert. */
export function unitOf(label: string): FeedUnit | undefined {
  return ALIASES[label.trim().toLowerCase()]
}

type Dimension = 'temperature' | 'speed' | 'length'
/** Each unit's dimension and its factor to the dimension's base (m/s, m); temperatures convert via kelvin. */
const LINEAR: Record<string, { dim: Dimension; factor: number }> = {
  'm/s': { dim: 'speed', factor: 1 },
  mph: { dim: 'speed', factor: 0.44704 },
  'km/h': { dim: 'speed', factor: 1 / 3.6 },
  knots: { dim: 'speed', factor: 1852 / 3600 },
  mm: { dim: 'length', factor: 0.001 },
  in: { dim: 'length', factor: 0.0254 },
  m: { dim: 'length', factor: 1 },
  ft: { dim: 'length', factor: 0.3048 },
  km: { dim: 'length', factor: 1000 },
  mi: { dim: 'length', factor: 1609.344 },
}

function toKelvin(v: number, u: FeedUnit): number | undefined {
  if (u === 'kelvin') return v
  if (u === 'celsius') return v + 273.15
  if (u === 'fahrenheit') return ((v - 32) * 5) / 9 + 273.15
  return undefined
}

function fromKelvin(k: number, u: FeedUnit): number | undefined {
  if (u === 'kelvin') return k
  if (u === 'celsius') return k - 273.15
  if (u === 'fahrenheit') return ((k - 273.15) * 9) / 5 + 32
  return undefined
}

/** Converts `v` between units; throws when the units measure different things. */
export function convertUnit(v: number, from: FeedUnit, to: FeedUnit): number {
  if (from === to) return v
  const k = toKelvin(v, from)
  if (k !== undefined) {
    const out = fromKelvin(k, to)
    if (out !== undefined) return Math.round(out * 1e6) / 1e6
  }
  const a = LINEAR[from]
  const b = LINEAR[to]
  if (!a || !b || a.dim !== b.dim) throw new Error(`cannot convert ${from} to ${to}`)
  return Math.round(((v * a.factor) / b.factor) * 1e6) / 1e6
}
