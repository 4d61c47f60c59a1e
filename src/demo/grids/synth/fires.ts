import { emptyRaster, fillRaster, sampleBilinear, type GridRaster } from '../../../server/grids/gridRaster'
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

/** A fire's plume for one hour: the unit vector it drifts along and its source strength. */
export interface Plume {
  fire: ActiveFire
  ux: number
  uy: number
  source: number
}

/** Plume half-width scale (km) at a distance downwind (km). */
export const plumeSigma = (along: number): number => 2 + 0.22 * Math.max(0, along)

/** Loss along the plume: slow downwind, fast upwind. */
export const plumeDecay = (along: number): number =>
  along >= 0 ? Math.exp(-along / 260) : Math.exp(-((along / 4) ** 2))

/** The plumes of the burning fires: emissions grow with size, peak in the afternoon. */
export function plumes(fires: readonly ActiveFire[], w: WeatherHour, localHour: number): Plume[] {
  return fires
    .filter((f) => f.percentContained < 100)
    .map((fire) => {
      const { ux, uy } = windAt(fire, w)
      const source =
        1.2 * Math.pow(fire.acres, 0.55) * (1 - fire.percentContained / 120) * (0.5 + diurnal(localHour))
      return { fire, ux, uy, source }
    })
}

/** Concentration (µg/m³) of one plume at plume coordinates (km downwind, km across). */
export function plumeAt(p: Plume, along: number, across: number): number {
  if (along < -15) return 0
  const sigma = plumeSigma(along)
  return (p.source / sigma) * Math.exp(-(across * across) / (2 * sigma * sigma)) * plumeDecay(along)
}

/**
 * Smoke concentration (µg/m³) for one hour: a Gaussian plume from each fire, drifting downwind,
 * widening with distance.
 */
export function smokeConcentration(
  shape: GridRaster,
  fires: readonly ActiveFire[],
  w: WeatherHour,
  localHour: number,
): GridRaster {
  const list = plumes(fires, w, localHour)
  return fillRaster(emptyRaster(shape), (lon, lat, k) => {
    if (Number.isNaN(shape.data[k]!)) return Number.NaN
    let total = 0
    for (const p of list) {
      const [x, y] = offsetKm(p.fire, lon, lat)
      total += plumeAt(p, x * p.ux + y * p.uy, -x * p.uy + y * p.ux)
    }
    return total
  })
}

/**
 * The outline ([lon, lat] ring) inside which one plume exceeds `threshold`, or null when it never
 * does: the across-wind half-width solved from the plume formula at steps downwind.
 */
export function plumeOutline(p: Plume, threshold: number): [number, number][] | null {
  const upper: [number, number][] = []
  const lower: [number, number][] = []
  for (let along = -15; along <= 600; along += along < 10 ? 1 : 5) {
    const sigma = plumeSigma(along)
    const peak = (p.source / sigma) * plumeDecay(along)
    if (peak <= threshold) {
      if (upper.length > 0) break
      continue
    }
    const half = sigma * Math.sqrt(2 * Math.log(peak / threshold))
    upper.push(toLonLat(p, along, half))
    lower.push(toLonLat(p, along, -half))
  }
  if (upper.length < 2) return null
  const ring = [...upper, ...lower.reverse()]
  ring.push(ring[0]!)
  return ring
}

function toLonLat(p: Plume, along: number, across: number): [number, number] {
  const east = along * p.ux - across * p.uy
  const north = along * p.uy + across * p.ux
  const lon = p.fire.lon + east / (111.32 * Math.cos((p.fire.lat * Math.PI) / 180))
  const lat = p.fire.lat + north / KM_PER_DEG_LAT
  return [Math.round(lon * 1e5) / 1e5, Math.round(lat * 1e5) / 1e5]
}
