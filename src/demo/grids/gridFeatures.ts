import type { Feature, Point, Polygon } from 'geojson'
import { cellLat, cellLon, type GridRaster } from '../../server/grids/gridRaster'
import { plumeOutline, plumes, type ActiveFire } from './synth/fires'
import type { WeatherHour } from './synth/weather'
import { speedAndDirection } from '../../server/grids/windGrid'

const r2 = (v: number): number => Math.round(v * 100) / 100

/**
 * Wind-vector sample points for the `wind_vectors` dataset: every `step`-th cell inside the state
 * (where `inside` has data), one point per forecast hour.
 */
export function windPoints(
  u: readonly GridRaster[],
  v: readonly GridRaster[],
  inside: GridRaster,
  validTimes: readonly string[],
  step: number,
): Feature<Point>[] {
  const out: Feature<Point>[] = []
  u.forEach((ug, h) => {
    const vg = v[h]!
    for (let j = Math.floor(step / 2); j < ug.ny; j += step) {
      for (let i = Math.floor(step / 2); i < ug.nx; i += step) {
        const k = j * ug.nx + i
        if (Number.isNaN(inside.data[k]!)) continue
        const { speed, fromDeg } = speedAndDirection(ug.data[k]!, vg.data[k]!)
        out.push({
          type: 'Feature',
          geometry: {
            type: 'Point',
            coordinates: [r2(cellLon(ug, i) * 1000) / 1000, r2(cellLat(ug, j) * 1000) / 1000],
          },
          properties: {
            valid_time: validTimes[h],
            wind_speed_mph: r2(speed),
            wind_direction_deg: Math.round(fromDeg),
            u_mph: r2(ug.data[k]!),
            v_mph: r2(vg.data[k]!),
          },
        })
      }
    }
  })
  return out
}

/** Smoke plume outlines for the `smoke` dataset: per fire and hour, one polygon per legend band. */
export function smokePolygons(
  fires: readonly ActiveFire[],
  weather: readonly WeatherHour[],
  startHourLocal: number,
  validTimes: readonly string[],
  bands: readonly number[],
): Feature<Polygon>[] {
  const out: Feature<Polygon>[] = []
  weather.forEach((w, h) => {
    for (const p of plumes(fires, w, startHourLocal + h)) {
      for (const band of bands.filter((b) => b > 0)) {
        const ring = plumeOutline(p, band)
        if (!ring) continue
        out.push({
          type: 'Feature',
          geometry: { type: 'Polygon', coordinates: [ring] },
          properties: { valid_time: validTimes[h], density_ugm3: band, source_fire: p.fire.name },
        })
      }
    }
  })
  return out
}
