import type { FeatureInput } from '../server/store/Store'
import { placesByPopulation, type DemoContext } from './context'
import { offset, type Place } from './geography'
import { round } from './prng'
import { rectangle, ringAreaM2, SQFT_PER_M2 } from './shapes'

/**
 * `ctx.buildings` footprints: rotated rectangles clustered around the places (share ∝ pop^0.9,
 * street-grid orientation per place) plus 12% rural; emitted place by place for locality.
 */
export function* buildings(ctx: DemoContext): Generator<FeatureInput> {
  const rng = ctx.rng('buildings')
  const places = placesByPopulation(ctx.geo.places)
  const weights = places.map((p) => p.population ** 0.9)
  const total = weights.reduce((a, b) => a + b, 0)
  const rural = Math.round(ctx.buildings * 0.12)
  const urban = ctx.buildings - rural
  let made = 0
  const emit = (lon: number, lat: number, angle: number): FeatureInput => {
    const w = rng.range(8, 22)
    const h = w * rng.range(0.6, 1.6)
    const ring = rectangle(lon, lat, w, h, angle)
    return {
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: { area_ft2: round(ringAreaM2(ring) * SQFT_PER_M2, 0) },
    }
  }
  for (let i = 0; i < places.length; i++) {
    const place = places[i] as Place
    const n = i === places.length - 1 ? urban - made : Math.round((urban * (weights[i] as number)) / total)
    const grid = rng.range(-0.2, 0.2)
    const sigma = Math.sqrt(place.population) * 9 + 300
    for (let k = 0; k < n; k++) {
      let lon = place.lon
      let lat = place.lat
      for (let tries = 0; tries < 8; tries++) {
        ;[lon, lat] = offset(place.lon, place.lat, rng.normal(0, sigma), rng.normal(0, sigma))
        if (ctx.geo.contains(lon, lat)) break
        ;[lon, lat] = [place.lon, place.lat]
      }
      yield emit(lon, lat, grid + (rng() < 0.85 ? 0 : rng.range(0, Math.PI)))
    }
    made += n
  }
  const [w, s, e, n] = ctx.geo.bbox
  for (let k = 0; k < rural;) {
    const lon = rng.range(w, e)
    const lat = rng.range(s, n)
    if (!ctx.geo.contains(lon, lat)) continue
    k += 1
    yield emit(lon, lat, rng.range(0, Math.PI))
  }
}
