import type { FeatureInput } from '../server/store/Store'
import type { DemoContext } from './context'
import type { ActiveFire } from './fires'
import { offset } from './geography'
import { ellipse } from './shapes'
import { HOUR, iso } from './time'

/** HMS densities, outermost first: the analysts' Light plume holds the Medium one, which holds Heavy. */
const DENSITIES = [
  { density: 'Light', rank: 1, scale: 1 },
  { density: 'Medium', rank: 2, scale: 0.6 },
  { density: 'Heavy', rank: 3, scale: 0.3 },
] as const

/**
 * Observed smoke as NOAA HMS analysts outline it on satellite imagery: for each fire still
 * burning, nested Light / Medium / Heavy plumes stretched downwind, analysed over the last
 * hours (the layer the `hms-smoke` feed fills with real polygons).
 */
export function observedSmoke(ctx: DemoContext, fires: readonly ActiveFire[]): FeatureInput[] {
  const rng = ctx.rng('observed-smoke')
  const out: FeatureInput[] = []
  for (const f of fires.filter((x) => x.contained < 100)) {
    const length = f.radiusM * rng.range(8, 14)
    const bearing = ctx.windTowards + rng.range(-10, 10)
    const th = (bearing * Math.PI) / 180
    const start = ctx.now - rng.int(4, 8) * HOUR
    const end = ctx.now - rng.int(0, 2) * HOUR
    const satellite = rng.pick(['GOES-EAST', 'GOES-WEST', 'NOAA-20', 'Suomi NPP'])
    for (const d of DENSITIES) {
      const a = length * d.scale
      // Each plume starts at the fire and reaches downwind, so the inner ones stay inside.
      const [lon, lat] = offset(f.lon, f.lat, Math.sin(th) * a * 0.9, Math.cos(th) * a * 0.9)
      out.push({
        geometry: { type: 'Polygon', coordinates: [ellipse(lon, lat, a, a * 0.3, bearing, 40)] },
        properties: {
          density: d.density,
          density_rank: d.rank,
          satellite,
          start_time: iso(start),
          end_time: iso(end),
        },
      })
    }
  }
  return out
}
