import type { FeatureInput } from '../server/store/Store'
import { wpiAdjective, type Feeder } from './assets'
import type { DemoContext } from './context'
import { round } from './prng'
import { ellipse } from './shapes'
import { HOUR, iso } from './time'

/** The provenance of a score the demo drew; a consequence run replaces it with its own (config/fire.yaml). */
export const DEMO_DRAWING = 'demo drawing, not computed (FIRE_RUNS=on computes it: docs/fire.md)'

/** EPSS circuits: feeders set to non-reclose for the next event, with every table field. */
export function epssCircuits(ctx: DemoContext, list: readonly Feeder[]): FeatureInput[] {
  const rng = ctx.rng('epss')
  return list.map((f, i) => {
    const wpi = round(rng.range(30, 140), 0)
    const threshold = rng.pick([35, 40, 45, 50])
    return {
      geometry: { type: 'LineString', coordinates: f.coords },
      properties: {
        line_type: i % 7 === 0 ? 'tap' : 'distribution',
        identifier: f.identifier,
        circuit_wind_gust_threshold_mph: threshold,
        customers: rng.int(20, 2400),
        social_vulnerability_index: round(rng.range(0.1, 0.95), 2),
        medical_certificates: rng.int(0, 25),
        critical_infrastructure: rng.int(0, 12),
        forecast_start: iso(ctx.nextEvent),
        forecast_end: iso(ctx.nextEvent + rng.int(8, 18) * HOUR),
        wildfire_potential_index_adjective: wpiAdjective(wpi),
        wildfire_potential_index_value: wpi,
        forecasted_wind_gust_mph: round(threshold + rng.range(-5, 25), 0),
        forecasted_sustained_wind_mph: round(rng.range(15, 40), 0),
        forecasted_relative_humidity: round(rng.range(4, 18), 0),
        forecasted_dead_fuel_moisture: round(rng.range(2, 8), 1),
        forecasted_live_fuel_moisture: round(rng.range(60, 120), 1),
        circuit_length_mi: round(f.miles, 1),
        epss_risk_score: round(rng.range(0.35, 1), 2),
        epss_risk_computed: DEMO_DRAWING,
      },
    }
  })
}

/** PSPS next-event circuits (recommended for de-energization) with fire risk and consequence. */
export function pspsCircuits(ctx: DemoContext, list: readonly Feeder[]): FeatureInput[] {
  const rng = ctx.rng('psps')
  return list.map((f, i) => {
    const threshold = rng.pick([40, 45, 50, 55])
    return {
      geometry: { type: 'LineString', coordinates: f.coords },
      properties: {
        line_type: i % 5 === 0 ? 'tap' : 'distribution',
        identifier: f.identifier,
        forecast_start: iso(ctx.nextEvent),
        forecast_end: iso(ctx.nextEvent + 18 * HOUR),
        circuit_wind_gust_threshold: threshold,
        circuit_length: round(f.miles, 1),
        customers_impacted: rng.int(15, 1800),
        forecasted_wind_gust: round(threshold + rng.range(2, 22), 0),
        forecasted_wind_gust_unit: 'mph',
        spread_potential: rng.pick(['moderate', 'high', 'high', 'extreme']),
        critical_infrastructure: rng.int(0, 9),
        social_vulnerability_index: round(rng.range(0.1, 0.95), 2),
        medical_certificates: rng.int(0, 18),
        wind_gust_percentile: rng.int(95, 99),
        fire_risk_score: round(rng.range(0.55, 1), 2),
        fire_consequence_score: round(rng.range(0.2, 1), 2),
        fire_risk_computed: DEMO_DRAWING,
      },
    }
  })
}

/** 2-hour fire-arrival contours from an ignition at each PSPS circuit, stretched downwind. */
export function fireConsequence(ctx: DemoContext, psps: readonly FeatureInput[]): FeatureInput[] {
  const rng = ctx.rng('consequence')
  return psps.map((f) => {
    const coords = (f.geometry as { coordinates: number[][] }).coordinates
    const mid = coords[Math.floor(coords.length / 2)] as number[]
    const a = rng.range(2500, 6000)
    const [lon, lat] = [mid[0] as number, mid[1] as number]
    const structures = rng.int(5, 1200)
    return {
      geometry: {
        type: 'Polygon',
        coordinates: [ellipse(lon, lat, a, a * rng.range(0.35, 0.6), ctx.windTowards)],
      },
      properties: {
        identifier: String(f.properties?.identifier),
        structures_impacted: structures,
        fire_consequence_score: round(Math.min(1, structures / 1000), 2),
        arrival_hours: 2,
        consequence_computed: DEMO_DRAWING,
      },
    }
  })
}
