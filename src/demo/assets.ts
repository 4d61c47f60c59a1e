import type { FeatureInput } from '../server/store/Store'
import { placeCode, placesByPopulation, type DemoContext } from './context'
import { distanceM, lineLengthM, M_PER_MILE, offset, type Place } from './geography'
import { round } from './prng'
import { gridWalk, meander } from './shapes'

export interface Feeder {
  identifier: string
  place: Place
  coords: number[][]
  miles: number
}

/** Transmission: a minimum spanning tree over the places plus links between the largest towns. */
export function transmissionLines(ctx: DemoContext): FeatureInput[] {
  const rng = ctx.rng('transmission')
  const places = placesByPopulation(ctx.geo.places)
  const edges: [Place, Place][] = []
  const inTree = new Set<Place>([places[0] as Place])
  while (inTree.size < places.length) {
    let best: [Place, Place] | null = null
    let bestD = Infinity
    for (const a of inTree)
      for (const b of places) {
        if (inTree.has(b)) continue
        const d = distanceM([a.lon, a.lat], [b.lon, b.lat])
        if (d < bestD) [bestD, best] = [d, [a, b]]
      }
    if (!best) break
    edges.push(best)
    inTree.add(best[1])
  }
  const big = places.slice(0, 10)
  big.forEach((a, i) => {
    const b = big[(i + 3) % big.length] as Place
    if (!edges.some(([p, q]) => (p === a && q === b) || (p === b && q === a))) edges.push([a, b])
  })
  return edges.map(([a, b], i) => {
    const d = distanceM([a.lon, a.lat], [b.lon, b.lat])
    const kv =
      a.population > 40000 && b.population > 40000 ? 345 : d > 60000 || a.population > 20000 ? 230 : 115
    const coords = meander(rng, [a.lon, a.lat], [b.lon, b.lat], 1500, 0.03)
    return {
      geometry: { type: 'LineString', coordinates: coords },
      properties: {
        identifier: `TL-${kv}-${String(i + 1).padStart(3, '0')}`,
        circuit_length: round(lineLengthM(coords) / M_PER_MILE, 1),
        nominal_voltage: kv,
        operating_voltage: round(kv * rng.range(0.97, 1.03), 1),
      },
    }
  })
}

/** Distribution feeders: street-grid walks from each place's substation, more for larger places. */
export function feeders(ctx: DemoContext): Feeder[] {
  const rng = ctx.rng('feeders')
  const out: Feeder[] = []
  for (const place of ctx.geo.places) {
    const n = Math.max(4, Math.min(160, Math.round(place.population / 2500)))
    const angle = rng.range(-0.1, 0.1)
    const spread = Math.sqrt(place.population) * 12 + 500
    for (let i = 0; i < n; i++) {
      const start = offset(place.lon, place.lat, rng.normal(0, spread), rng.normal(0, spread))
      const coords = gridWalk(rng, start, rng.int(5, 30), rng.range(150, 600), angle)
      if (!coords.every(([x, y]) => ctx.geo.contains(x as number, y as number))) continue
      out.push({
        identifier: `${placeCode(place)}-${String(i + 1).padStart(3, '0')}`,
        place,
        coords,
        miles: round(lineLengthM(coords) / M_PER_MILE, 2),
      })
    }
  }
  return out
}

export function distributionLines(list: readonly Feeder[]): FeatureInput[] {
  return list.map((f) => ({
    geometry: { type: 'LineString', coordinates: f.coords },
    properties: {
      identifier: f.identifier,
      circuit_length: f.miles,
      substation: `${f.place.name} Substation`,
    },
  }))
}

/** The feeders nearest the demo focus (the circuits of the next EPSS/PSPS event). */
export function nearestFeeders(ctx: DemoContext, list: readonly Feeder[], n: number): Feeder[] {
  const d = (f: Feeder): number => distanceM(f.coords[0] as number[], ctx.focus)
  return [...list].sort((a, b) => d(a) - d(b) || a.identifier.localeCompare(b.identifier)).slice(0, n)
}

const WPI_ADJECTIVES: [number, string][] = [
  [25, 'low'],
  [50, 'moderate'],
  [80, 'high'],
  [110, 'very high'],
  [Infinity, 'extreme'],
]

export function wpiAdjective(v: number): string {
  return (WPI_ADJECTIVES.find(([max]) => v < max) as [number, string])[1]
}
