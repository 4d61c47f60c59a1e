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

/**
 * EPSS risk score 0..1: the worst hour of the window. High only where strong gusts meet dry air
 * and heavy fuel (about 0.5 at 55 mph gusts, 10% humidity and typical fuel), so the layer
 * picks out the circuits' risky ground rather than washing over the whole event area.
 */
export function epssScore(fuel: GridRaster, hours: WeatherHour[]): GridRaster {
  return combine(fuel, (k) => {
    let worst = 0
    for (const w of hours) {
      const z =
        0.16 * (w.windGust.data[k]! - 58) +
        0.05 * (18 - w.relativeHumidity.data[k]!) +
        2.2 * (fuel.data[k]! - 0.6)
      worst = Math.max(worst, logistic(z))
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
