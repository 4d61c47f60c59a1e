import { emptyRaster, type GridRaster } from '../../../server/grids/gridRaster'
import type { WeatherHour } from './weather'

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v))
const logistic = (z: number): number => 1 / (1 + Math.exp(-z))

function combine(shape: GridRaster, fn: (k: number) => number): GridRaster {
  const out = emptyRaster(shape)
  for (let k = 0; k < out.data.length; k++) if (!Number.isNaN(shape.data[k]!)) out.data[k] = fn(k)
  return out
}

/** Wildfire Potential Index 0..150 from fuel, humidity and gusts. */
export function wildfirePotential(fuel: GridRaster, w: WeatherHour): GridRaster {
  return combine(fuel, (k) => {
    const dryness = clamp((60 - w.relativeHumidity.data[k]!) / 55, 0, 1)
    const windiness = clamp(0.25 + w.windGust.data[k]! / 55, 0, 1.3)
    return clamp(150 * fuel.data[k]! * dryness * windiness, 0, 150)
  })
}

/** PSPS hourly fire risk score 0..1: gusts above the circuit thresholds, dry air, fuel. */
export function pspsScore(fuel: GridRaster, w: WeatherHour): GridRaster {
  return combine(fuel, (k) =>
    logistic(
      0.12 * (w.windGust.data[k]! - 42) +
        0.06 * (20 - w.relativeHumidity.data[k]!) +
        2 * (fuel.data[k]! - 0.6),
    ),
  )
}

/** 0 below `from`, 1 beyond `to`, a smooth step between (works for falling ranges too: from > to). */
export function smoothstep(from: number, to: number, x: number): number {
  const t = clamp((x - from) / (to - from), 0, 1)
  return t * t * (3 - 2 * t)
}

/**
 * Where each EPSS factor starts to count and where it is at its worst: forecast gusts (mph), relative
 * humidity (%, falling) and fuel (0..1, the land cover's `FUEL`, averaged over the weather cell).
 */
export const EPSS_FACTORS = {
  gustMph: [48, 64],
  humidityPercent: [18, 5],
  fuel: [0.5, 0.75],
} as const

/**
 * EPSS risk score 0..1 for one hour: the product of the three factors, so it is high only where
 * strong gusts, dry air and heavy fuel meet — the corridors the wind band drives across dry,
 * fuelled ground — and near 0 wherever any one of them is missing.
 */
export function epssHourScore(gustMph: number, humidityPercent: number, fuel: number): number {
  const { gustMph: g, humidityPercent: h, fuel: f } = EPSS_FACTORS
  return (
    smoothstep(g[0], g[1], gustMph) * smoothstep(h[0], h[1], humidityPercent) * smoothstep(f[0], f[1], fuel)
  )
}

/** EPSS risk score 0..1 of the window: each cell's worst hour (`epssHourScore`). */
export function epssScore(fuel: GridRaster, hours: WeatherHour[]): GridRaster {
  return combine(fuel, (k) => {
    let worst = 0
    for (const w of hours) {
      worst = Math.max(worst, epssHourScore(w.windGust.data[k]!, w.relativeHumidity.data[k]!, fuel.data[k]!))
    }
    return worst
  })
}

/**
 * Fire consequence: structures a fire starting here would reach within its 2-hour arrival
 * contour — nearby residents (smoothed density) × the area fuel and slope let it cover.
 */
export function fireConsequence(people: GridRaster, fuel: GridRaster, slope: GridRaster): GridRaster {
  return combine(fuel, (k) => {
    const areaKm2 = 8 * fuel.data[k]! * (1 + (slope.data[k] ?? 0) / 25)
    return Math.max(0, people.data[k]! * areaKm2 * 0.45)
  })
}
