import type { FeatureInput } from '../server/store/Store'
import type { DemoContext } from './context'
import { offset } from './geography'
import { round, type Rng } from './prng'
import { blob, ellipse, M2_PER_ACRE, ringAreaM2 } from './shapes'
import { HOUR, iso } from './time'

export interface ActiveFire {
  name: string
  lon: number
  lat: number
  acres: number
  contained: number
  radiusM: number
}

/** Active fires: [name, dx km, dy km from the focus | absolute lon/lat, acres, % contained]. */
const FIRES: [string, number, number, number, number, boolean][] = [
  ['Cerro Pedernal Fire', 9, -6, 2400, 15, false],
  ['Coyote Canyon Fire', -14, 4, 850, 40, false],
  ['Jemez Mesa Fire', -106.62, 35.86, 5200, 30, true],
  ['Chama Ridge Fire', -106.5, 36.72, 1300, 100, true],
  ['Manzano Fire', -106.38, 34.66, 3100, 65, true],
  ['Gila Rim Fire', -108.3, 33.25, 12800, 20, true],
  ['Sacramento Fire', -105.72, 32.93, 640, 100, true],
  ['Capitan Peak Fire', -105.55, 33.6, 1900, 85, true],
]

export function activeFires(ctx: DemoContext): ActiveFire[] {
  return FIRES.map(([name, a, b, acres, contained, absolute]) => {
    const [lon, lat] = absolute ? [a, b] : offset(ctx.focus[0], ctx.focus[1], a * 1000, b * 1000)
    return { name, lon, lat, acres, contained, radiusM: Math.sqrt((acres * M2_PER_ACRE) / Math.PI) }
  })
}

/** Fires the demo places just upwind of an asset, so their forecast extents reach it: [name, acres, % contained]. */
const EXPOSED: readonly [string, number, number][] = [
  ['Bosque Grande Fire', 420, 5],
  ['Ojo Caliente Fire', 260, 10],
]

/**
 * Active fires burning just upwind of the given asset points (nearest first to the focus), one per
 * point: the asset lies 1.2 radii downwind of the fire's centre, inside its 6-hour forecast extents,
 * so the demo shows forecast extents crossing a transmission line and critical infrastructure.
 */
export function exposedFires(ctx: DemoContext, assets: readonly (readonly [number, number])[]): ActiveFire[] {
  const th = (ctx.windTowards * Math.PI) / 180
  return EXPOSED.slice(0, assets.length).map(([name, acres, contained], i) => {
    const radiusM = Math.sqrt((acres * M2_PER_ACRE) / Math.PI)
    const [ax, ay] = assets[i] ?? [0, 0]
    const [lon, lat] = offset(ax, ay, -Math.sin(th) * radiusM * 1.2, -Math.cos(th) * radiusM * 1.2)
    return { name, lon, lat, acres, contained, radiusM }
  })
}

function impacts(rng: Rng, acres: number): Record<string, number> {
  const k = Math.sqrt(acres)
  return {
    lines_impacted_miles: round(k * rng.range(0.02, 0.12), 1),
    structures_impacted: Math.round(k * rng.range(0.2, 2.5)),
    population: Math.round(k * rng.range(2, 12)),
    disadvantaged: Math.round(k * rng.range(0.2, 3)),
    social_vulnerability_index: round(rng.range(0.2, 0.9), 2),
    over_65_percent: round(rng.range(12, 28), 1),
    with_disabilities_percent: round(rng.range(9, 22), 1),
  }
}

/** An IRWIN-style incident id ({8-4-4-4-12} hex in braces), as the WFIGS feeds carry. */
function irwinId(rng: Rng): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => '0123456789ABCDEF'[rng.int(0, 15)] ?? '0').join('')
  return `{${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}}`
}

export function activeFirePerimeters(ctx: DemoContext, fires: readonly ActiveFire[]): FeatureInput[] {
  const rng = ctx.rng('active-fires')
  // Its own stream, so the fields the feeds brought do not shift the older fields' values.
  const incident = ctx.rng('active-fire-incidents')
  return fires.map((f) => ({
    geometry: { type: 'Polygon', coordinates: [blob(rng, f.lon, f.lat, f.radiusM, 56, 0.22)] },
    properties: {
      incident_name: f.name,
      percent_contained: f.contained,
      modified: iso(ctx.now - rng.int(1, 20) * HOUR),
      acres: f.acres,
      fire_cause: rng.pick(['lightning', 'human', 'under investigation']),
      estimated_cost_to_date: Math.round(f.acres * rng.range(400, 1400)),
      agency_in_charge: rng.pick(['USFS', 'BLM', 'NMSF', 'BIA']),
      ...impacts(rng, f.acres),
      irwin_id: irwinId(incident),
      discovered: iso(ctx.now - incident.int(2, 14) * 24 * HOUR - incident.int(0, 23) * HOUR),
    },
  }))
}

/** 6-hour forecast extents at the 50/75/90th percentiles: similar ellipses grown downwind from the fire's back edge (nested). */
export function forecastExtents(ctx: DemoContext, fires: readonly ActiveFire[]): FeatureInput[] {
  const rng = ctx.rng('forecast')
  const out: FeatureInput[] = []
  const th = (ctx.windTowards * Math.PI) / 180
  for (const f of fires.filter((x) => x.contained < 100)) {
    const [backLon, backLat] = offset(f.lon, f.lat, -Math.sin(th) * f.radiusM, -Math.cos(th) * f.radiusM)
    for (const [percentile, growth] of [
      [50, 1.6],
      [75, 2.1],
      [90, 2.8],
    ] as const) {
      const a = f.radiusM * growth
      const b = a * 0.55
      const [lon, lat] = offset(backLon, backLat, Math.sin(th) * a, Math.cos(th) * a)
      const ring = ellipse(lon, lat, a, b, ctx.windTowards)
      const acres = round(ringAreaM2(ring) / M2_PER_ACRE, 0)
      out.push({
        geometry: { type: 'Polygon', coordinates: [ring] },
        properties: {
          fire_name: f.name,
          percentile,
          acres,
          equipment_impacted: Math.round(Math.sqrt(acres) * rng.range(0.1, 0.6)),
          ...impacts(rng, acres),
        },
      })
    }
  }
  return out
}

const ADJ = [
  'Bear',
  'Cedar',
  'Dry',
  'Eagle',
  'Juniper',
  'Lone',
  'Mesa',
  'Pinon',
  'Red',
  'Rio',
  'Salt',
  'Black',
  'Turkey',
  'Elk',
  'Horse',
]
const NOUN = [
  'Canyon',
  'Ridge',
  'Springs',
  'Peak',
  'Draw',
  'Creek',
  'Flats',
  'Butte',
  'Mountain',
  'Tank',
  'Arroyo',
  'Hill',
]

/** Historic perimeters 1992–2024, every one over 1 acre, more in the forested west and north. */
export function historicFires(ctx: DemoContext): FeatureInput[] {
  const rng = ctx.rng('historic')
  const out: FeatureInput[] = []
  const [w, s, e, n] = ctx.geo.bbox
  while (out.length < 1500) {
    const lon = rng.range(w, e - (e - w) * 0.35 * rng())
    const lat = rng.range(s, n)
    if (!ctx.geo.contains(lon, lat)) continue
    const acres = round(Math.min(150000, 1.1 + Math.exp(rng.normal(3.2, 1.9))), 1)
    const radius = Math.sqrt((acres * M2_PER_ACRE) / Math.PI)
    const ring = blob(rng, lon, lat, radius, radius > 3000 ? 40 : 16, 0.3)
    if (!ring.every(([x, y]) => ctx.geo.contains(x as number, y as number))) continue
    out.push({
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: {
        acres,
        incident_name: `${rng.pick(ADJ)} ${rng.pick(NOUN)} Fire`,
        agency_in_charge: rng.pick(['USFS', 'BLM', 'NMSF', 'BIA', 'NPS']),
        fire_year: rng.int(1992, 2024),
      },
    })
  }
  return out
}

/** VIIRS detections around the fires, with acquisition ages in every bucket (0-6, 6-12, 12-24, >24 h). */
export function thermalHotspots(ctx: DemoContext, fires: readonly ActiveFire[]): FeatureInput[] {
  const rng = ctx.rng('hotspots')
  const ages = [
    [0.2, 6],
    [6, 12],
    [12, 24],
    [24, 72],
  ] as const
  const out: FeatureInput[] = []
  for (const f of fires) {
    const count = f.contained >= 100 ? 6 : 40
    for (let i = 0; i < count; i++) {
      const [lo, hi] = ages[i % ages.length] as readonly [number, number]
      const r = f.radiusM * Math.sqrt(rng()) * 1.1
      const t = rng.range(0, Math.PI * 2)
      const [lon, lat] = offset(f.lon, f.lat, Math.cos(t) * r, Math.sin(t) * r)
      const frp = round(Math.exp(rng.normal(2.2, 0.9)), 1)
      out.push({
        geometry: { type: 'Point', coordinates: [round(lon, 6), round(lat, 6)] },
        properties: {
          satellite: rng.pick(['NOAA-20', 'NOAA-21', 'Suomi NPP']),
          confidence: rng.pick(['low', 'nominal', 'nominal', 'high']),
          radiative_power_mw: frp,
          temperature_c: round(rng.range(45, 120), 1),
          intensity_score: round(Math.min(10, frp / 6), 1),
          acquired: iso(ctx.now - Math.round(rng.range(lo, hi) * 60) * 60_000),
          instrument: 'VIIRS',
        },
      })
    }
  }
  return out
}

/** Hourly smoke plumes (18 h) downwind of the burning fires. */
export function smokePlumes(ctx: DemoContext, fires: readonly ActiveFire[]): FeatureInput[] {
  const rng = ctx.rng('smoke')
  const out: FeatureInput[] = []
  const th = (ctx.windTowards * Math.PI) / 180
  for (const f of fires.filter((x) => x.contained < 100)) {
    for (let h = 0; h < 18; h++) {
      const a = f.radiusM * (3 + h * 0.4)
      const [lon, lat] = offset(f.lon, f.lat, Math.sin(th) * a * 0.8, Math.cos(th) * a * 0.8)
      out.push({
        geometry: {
          type: 'Polygon',
          coordinates: [ellipse(lon, lat, a, a * 0.35, ctx.windTowards + rng.range(-8, 8), 32)],
        },
        properties: {
          valid_time: iso(ctx.now + h * HOUR),
          density_ugm3: round(rng.range(8, 160) / (1 + h * 0.1), 1),
          source_fire: f.name,
        },
      })
    }
  }
  return out
}
