import { emptyRaster, fillRaster, type GridRaster } from '../../../server/grids/gridRaster'
import { fbm } from './noise'

/** One forecast hour of the near-surface weather fields (mph, %, u/v towards east/north in mph). */
export interface WeatherHour {
  relativeHumidity: GridRaster
  sustainedWind: GridRaster
  windGust: GridRaster
  windU: GridRaster
  windV: GridRaster
}

/** 0 at night, rising to 1 in mid-afternoon. */
export function diurnal(localHour: number): number {
  const h = ((localHour % 24) + 24) % 24
  return Math.max(0, Math.sin((Math.PI * (h - 8)) / 14))
}

/**
 * `hours` hours of a spring wind event: south-westerly winds strengthening through the afternoon,
 * a band of strong wind sweeping west to east across the state in the first `sweepHours` (the
 * forecast window, 18 h), drier air behind it, gusts about 1.4× sustained; after the sweep the band
 * moves on east at the same speed and the post-frontal winds follow the day.
 */
export function weatherHours(
  elevation: GridRaster,
  hours: number,
  startHourLocal: number,
  seed: number,
  sweepHours = hours,
): WeatherHour[] {
  const out: WeatherHour[] = []
  for (let h = 0; h < hours; h++) {
    const day = diurnal(startHourLocal + h)
    const front = -109.6 + (h * 7.5) / Math.max(1, sweepHours - 1)
    const shape = elevation
    const rh = emptyRaster(shape)
    const gust = emptyRaster(shape)
    const u = emptyRaster(shape)
    const v = emptyRaster(shape)
    const wind = fillRaster(emptyRaster(shape), (lon, lat, k) => {
      const z = elevation.data[k]!
      if (Number.isNaN(z)) return Number.NaN
      const band = Math.exp(-(((lon - front) / 1.3) ** 2))
      const behind = lon < front ? 1 : band
      const n = fbm(lon * 4 + h * 0.15, lat * 4, seed + 61, 3)
      const lift = Math.max(0, (z - 1500) / 1000)
      const speed = Math.max(1, 6 + 9 * day + 6 * lift + 24 * band * (0.55 + 0.45 * day) + (n - 0.5) * 10)
      const fromDeg = 215 + 45 * behind + (fbm(lon * 2, lat * 2 + h * 0.1, seed + 67, 2) - 0.5) * 40
      const rad = (fromDeg * Math.PI) / 180
      u.data[k] = -speed * Math.sin(rad)
      v.data[k] = -speed * Math.cos(rad)
      gust.data[k] = speed * (1.3 + 0.25 * fbm(lon * 9, lat * 9 + h * 0.2, seed + 71, 2)) + 3
      const moist = 28 - 16 * day + 10 * lift + Math.max(0, lon + 105) * 5 - 9 * behind
      rh.data[k] = Math.min(
        100,
        Math.max(3, moist + (fbm(lon * 5, lat * 5 - h * 0.1, seed + 73, 3) - 0.5) * 16),
      )
      return speed
    })
    out.push({ relativeHumidity: rh, sustainedWind: wind, windGust: gust, windU: u, windV: v })
  }
  return out
}
