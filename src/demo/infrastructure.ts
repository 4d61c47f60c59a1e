import type { FeatureInput } from '../server/store/Store'
import type { DemoContext } from './context'
import { offset } from './geography'
import { round } from './prng'

const TYPES: [string, string, number][] = [
  ['Fire Station', 'Fire Station', 15000],
  ['Hospital', 'Medical Center', 40000],
  ['Emergency Shelter', 'Emergency Shelter', 20000],
  ['Water Tower', 'Water Tower', 12000],
  ['Water Pump', 'Pump Station', 15000],
  ['Gas Station', 'Fuel Stop', 8000],
  ['Supermarket', 'Market', 10000],
  ['Communications Tower', 'Communications Tower', 30000],
]

/** Critical infrastructure of all 8 types in every place (more in larger ones). */
export function criticalInfrastructure(ctx: DemoContext): FeatureInput[] {
  const rng = ctx.rng('infrastructure')
  const out: FeatureInput[] = []
  for (const p of ctx.geo.places) {
    const spread = Math.sqrt(p.population) * 10 + 400
    for (const [type, label, per] of TYPES) {
      const n = Math.max(1, Math.min(12, Math.round(p.population / per)))
      for (let i = 0; i < n; i++) {
        const [lon, lat] = offset(p.lon, p.lat, rng.normal(0, spread), rng.normal(0, spread))
        out.push({
          geometry: { type: 'Point', coordinates: [round(lon, 6), round(lat, 6)] },
          properties: { type, name: n > 1 ? `${p.name} ${label} ${i + 1}` : `${p.name} ${label}` },
        })
      }
    }
  }
  return out
}
