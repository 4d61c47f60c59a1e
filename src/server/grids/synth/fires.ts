import { emptyRaster, fillRaster, sampleBilinear, type GridRaster } from '../gridRaster'
import type { WeatherHour } from './weather'
import { diurnal } from './weather'

/** An active fire as the grids need it. */
export interface ActiveFire {
  name: string
  lon: number
  lat: number
  acres: number
  percentContained: number
}

const KM_PER_DEG_LAT = 110.57

/** Offsets in km (east, north) from a fire to a point. */
function offsetKm(fire: ActiveFire, lon: number, lat: number): [number, number] {
  return [(lon - fire.lon) * 111.32 * Math.cos((fire.lat * Math.PI) / 180), (lat - fire.lat) * KM_PER_DEG_LAT]
}

/** Unit vector the wind blows towards at a fire (from the given hour), south-west wind if unknown. */
function windAt(fire: ActiveFire, w: WeatherHour): { ux: number; uy: number; speed: number } {
  const u = sampleBilinear(w.windU, fire.lon, fire.lat)
  const v = sampleBilinear(w.windV, fire.lon, fire.lat)
  const speed = Math.hypot(u, v)
  if (!(speed > 0)) return { ux: Math.SQRT1_2, uy: Math.SQRT1_2, speed: 10 }
  return { ux: u / speed, uy: v / speed, speed }
}

/** Fire encroachment 0..100: 100 inside the perimeter, falling off with distance, further downwind. */
export function fireEncroachment(
  shape: GridRaster,
  fires: readonly ActiveFire[],
  w: WeatherHour,
): GridRaster {
  const active = fires.filter((f) => f.percentContained < 100)
  const winds = active.map((f) => windAt(f, w))
  return fillRaster(emptyRaster(shape), (lon, lat, k) => {
    if (Number.isNaN(shape.data[k]!)) return Number.NaN
    let best = 0
    active.forEach((f, n) => {
      const { ux, uy } = winds[n]!
      const radius = Math.sqrt((f.acres * 0.004047) / Math.PI)
      const [x, y] = offsetKm(f, lon, lat)
      const along = x * ux + y * uy
      const across = -x * uy + y * ux
      const reach = (1 - f.percentContained / 100) * 10 + 3
      const dAlong =
        along > 0 ? Math.max(0, along - radius) / (reach * 1.8) : Math.max(0, -along - radius) / (reach * 0.6)
      const dAcross = Math.max(0, Math.abs(across) - radius) / reach
      best = Math.max(best, 100 * Math.exp(-(dAlong * dAlong + dAcross * dAcross)))
    })
    return best
  })
}

/**
 * Smoke concentration (µg/m³) for one hour: a Gaussian plume from each fire, drifting downwind,
 * widening with distance; emissions scale with fire size, activity peaks in the afternoon.
 */
export function smokeConcentration(
  shape: GridRaster,
  fires: readonly ActiveFire[],
  w: WeatherHour,
  localHour: number,
): GridRaster {
  const burning = fires.filter((f) => f.percentContained < 100)
  const plumes = burning.map((f) => ({
    fire: f,
    ...windAt(f, w),
    source: 1.2 * Math.pow(f.acres, 0.55) * (1 - f.percentContained / 120) * (0.5 + diurnal(localHour)),
  }))
  return fillRaster(emptyRaster(shape), (lon, lat, k) => {
    if (Number.isNaN(shape.data[k]!)) return Number.NaN
    let total = 0
    for (const p of plumes) {
      const [x, y] = offsetKm(p.fire, lon, lat)
      const along = x * p.ux + y * p.uy
      const across = -x * p.uy + y * p.ux
      if (along < -15) continue
      const sigma = 2 + 0.22 * Math.max(0, along)
      const decay = along >= 0 ? Math.exp(-along / 260) : Math.exp(-((along / 4) ** 2))
      total += (p.source / sigma) * Math.exp(-(across * across) / (2 * sigma * sigma)) * decay
    }
    return total
  })
}
