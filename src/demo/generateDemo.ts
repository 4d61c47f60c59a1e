import { appConfig } from '../shared/config'
import type { FeatureInput, SeriesPoint } from '../server/store/Store'
import { distributionLines, feeders, nearestFeeders, transmissionLines } from './assets'
import { buildings } from './buildings'
import { epssCircuits, fireConsequence, pspsCircuits } from './circuits'
import { makeContext, type DemoContext } from './context'
import {
  activeFirePerimeters,
  activeFires,
  exposedFires,
  forecastExtents,
  historicFires,
  smokePlumes,
  thermalHotspots,
} from './fires'
import { distanceM, newMexico } from './geography'
import { criticalInfrastructure } from './infrastructure'
import { observedSmoke } from './observedSmoke'
import { riskSeries } from './riskSeries'
import { HOUR, zonedInstant } from './time'
import { rawsStations, redFlagWarnings, windVectors } from './weather'

export interface DemoOptions {
  seed?: number
  buildings?: number
}

export interface DemoData {
  context: DemoContext
  /** Feature producers by dataset id (buildings is a generator, so 1,000,000+ stay streamable). */
  datasets: Record<string, () => Iterable<FeatureInput>>
  series: Record<string, SeriesPoint[]>
}

export const DEFAULT_SEED = 20250305
export const DEFAULT_BUILDINGS = 200_000
/** The next event of the demo: the day after the reference date at 15:00 local ('Next Event: March 6th at 3pm'). */
const NEXT_EVENT = { dayOffset: 1, hour: 15 }

function demoCenter(): [number, number] {
  const c: unknown = (appConfig.map as { demo?: { center?: unknown } }).demo?.center
  return Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number'
    ? [c[0], c[1]]
    : [-106.51, 36.17]
}

function nextDay(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** The vertex of the features' points/lines closest to `minM` metres from the demo focus. */
function nearestVertex(ctx: DemoContext, features: readonly FeatureInput[], minM: number): [number, number] {
  let best: [number, number] = ctx.focus
  let bestScore = Infinity
  for (const f of features) {
    const g = f.geometry
    const points = g?.type === 'Point' ? [g.coordinates] : g?.type === 'LineString' ? g.coordinates : []
    for (const p of points) {
      const score = Math.abs(distanceM(ctx.focus, p) - minM)
      if (score < bestScore) {
        bestScore = score
        best = [p[0] ?? 0, p[1] ?? 0]
      }
    }
  }
  return best
}

/** The deterministic New Mexico demo data set (same options → same content, byte for byte). */
export function generateDemo(options: DemoOptions = {}): DemoData {
  const { referenceDate, timeZone } = appConfig.demo
  const now = zonedInstant(referenceDate, 12, timeZone)
  const nextEvent = zonedInstant(nextDay(referenceDate, NEXT_EVENT.dayOffset), NEXT_EVENT.hour, timeZone)
  const ctx = makeContext(
    options.seed ?? DEFAULT_SEED,
    newMexico(),
    now,
    nextEvent,
    demoCenter(),
    options.buildings ?? DEFAULT_BUILDINGS,
  )
  const allFeeders = feeders(ctx)
  const eventFeeders = nearestFeeders(ctx, allFeeders, 60)
  const psps = pspsCircuits(
    ctx,
    eventFeeders.filter((_, i) => i % 2 === 0),
  )
  const transmission = transmissionLines(ctx)
  const infrastructure = criticalInfrastructure(ctx)
  const fires = [
    ...activeFires(ctx),
    ...exposedFires(ctx, [nearestVertex(ctx, transmission, 8000), nearestVertex(ctx, infrastructure, 4000)]),
  ]
  const dayStart = zonedInstant(referenceDate, 0, timeZone)
  return {
    context: ctx,
    datasets: {
      enhanced_powerline_safety_settings: () => epssCircuits(ctx, eventFeeders),
      public_safety_power_shutoff: () => psps,
      fire_consequence: () => fireConsequence(ctx, psps),
      transmission_lines: () => transmission,
      distribution_lines: () => distributionLines(allFeeders),
      buildings: () => buildings(ctx),
      critical_infrastructure: () => infrastructure,
      red_flag_warnings: () => redFlagWarnings(ctx),
      fire_extent_active: () => activeFirePerimeters(ctx, fires),
      fire_extent_forecast: () => forecastExtents(ctx, fires),
      fire_extent_historic: () => historicFires(ctx),
      thermal_hot_spots: () => thermalHotspots(ctx, fires),
      weather_stations_raws: () => rawsStations(ctx),
      wind_vectors: () => windVectors(ctx),
      smoke: () => smokePlumes(ctx, fires),
      observed_smoke: () => observedSmoke(ctx, fires),
    },
    series: { public_safety_power_shutoff_risk_score: riskSeries(ctx, dayStart) },
  }
}

export { HOUR }
