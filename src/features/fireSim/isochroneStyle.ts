import type { MultiPolygon, Polygon } from 'geojson'
import type { FireWhatIfResult } from '../../shared/fireSim/wireTypes'
import type { MapLabel } from '../map'

/** The hours' colours, first hour to last: pale yellow through orange to deep red. */
const RAMP = ['#ffe680', '#ffc34d', '#ff9e33', '#f5762a', '#e34f26', '#c92d21', '#a8141c', '#7f0a1a']

/** The colour of hour `hour` (1…hours) of a fire of `hours` hours: graded, the first palest. */
export function isochroneColor(hour: number, hours: number): string {
  if (hours <= 1) return RAMP[RAMP.length - 1]!
  const i = Math.round(((hour - 1) / (hours - 1)) * (RAMP.length - 1))
  return RAMP[Math.min(RAMP.length - 1, Math.max(0, i))]!
}

const outerRings = (g: Polygon | MultiPolygon): number[][][] =>
  g.type === 'Polygon' ? [g.coordinates[0] ?? []] : g.coordinates.map((p) => p[0] ?? [])

/**
 * One label per hour ("1 h", "2 h", …) at the point of that hour's area farthest from the ignition:
 * the head of the fire then, so nested hours' labels stand apart along the direction of spread.
 */
export function hourLabels(result: FireWhatIfResult, className: string): MapLabel[] {
  const [lon0, lat0] = result.point
  const k = Math.cos((lat0 * Math.PI) / 180)
  return result.isochrones.features.flatMap((f) => {
    let best: [number, number] | null = null
    let far = -1
    for (const ring of outerRings(f.geometry))
      for (const p of ring) {
        const d = Math.hypot((p[0]! - lon0) * k, p[1]! - lat0)
        if (d > far) [far, best] = [d, [p[0]!, p[1]!]]
      }
    return best ? [{ lonLat: best, text: `${f.properties.hour} h`, className }] : []
  })
}
