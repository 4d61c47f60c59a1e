import type { FeatureInput } from '../server/store/Store'
import type { DemoContext } from './context'
import { offset } from './geography'
import { round } from './prng'
import { HOUR, iso } from './time'

/** RAWS stations near the places (mostly the smaller, rural ones) with their latest observation. */
export function rawsStations(ctx: DemoContext): FeatureInput[] {
  const rng = ctx.rng('raws')
  const places = [...ctx.geo.places]
    .sort((a, b) => a.population - b.population || a.name.localeCompare(b.name))
    .slice(0, 36)
  return places.map((p, i) => {
    const [lon, lat] = offset(p.lon, p.lat, rng.normal(0, 6000), rng.normal(0, 6000))
    const gust = round(rng.range(18, 55), 0)
    return {
      geometry: { type: 'Point', coordinates: [round(lon, 5), round(lat, 5)] },
      properties: {
        station_name: `${p.name} RAWS`,
        nwsid: String(290100 + i * 37),
        elevation_ft: Math.round(rng.range(4200, 9400)),
        observed: iso(ctx.now - rng.int(5, 55) * 60_000),
        temperature_f: round(rng.range(48, 72), 0),
        relative_humidity_percent: round(rng.range(5, 22), 0),
        wind_speed_mph: round(gust * rng.range(0.45, 0.7), 0),
        precipitation_in: round(rng() < 0.85 ? 0 : rng.range(0.01, 0.2), 2),
        wind_gust_speed_mph: gust,
      },
    }
  })
}

/** Red Flag Warnings over the counties around the focus, and a Fire Weather Watch 12-72 h ahead. */
export function redFlagWarnings(ctx: DemoContext): FeatureInput[] {
  const rng = ctx.rng('red-flag')
  const warn = ['Rio Arriba', 'Sandoval', 'Los Alamos', 'Santa Fe', 'Taos']
  const watch = ['Catron', 'Grant', 'Sierra', 'Socorro']
  return ctx.geo.counties
    .filter((c) => warn.includes(c.name) || watch.includes(c.name))
    .map((c) => {
      const isWatch = watch.includes(c.name)
      const effective = isWatch ? ctx.now + 12 * HOUR : ctx.nextEvent - 4 * HOUR
      return {
        geometry: c.geometry,
        properties: {
          updated: iso(ctx.now - rng.int(1, 5) * HOUR),
          effective: iso(effective),
          expires: iso(effective + (isWatch ? 60 : 14) * HOUR),
          severity: isWatch ? 'moderate' : 'severe',
          winds: `Southwest 20 to 30 mph with gusts to ${rng.pick([45, 50, 55])} mph`,
          humidity: `${rng.int(4, 7)} to ${rng.int(9, 12)} percent`,
          temperature_f: rng.int(58, 72),
          impacts: 'Any fires that develop will spread rapidly; outdoor burning is not recommended.',
          erc_percentile: rng.int(88, 99),
          certainty: isWatch ? 'possible' : 'likely',
          event: isWatch ? 'Fire Weather Watch' : 'Red Flag Warning',
          alert_id: `urn:oid:2.49.0.1.840.0.demo.${isWatch ? 'fww' : 'rfw'}.${c.name.toLowerCase().replace(/\W+/g, '-')}`,
        },
      }
    })
}

/** Wind samples on a 0.5° grid, hourly for 18 hours (south-westerly, stronger in the north-west). */
export function windVectors(ctx: DemoContext): FeatureInput[] {
  const rng = ctx.rng('wind')
  const out: FeatureInput[] = []
  const [w, s, e, n] = ctx.geo.bbox
  for (let h = 0; h < 18; h++)
    for (let lat = Math.ceil(s * 2) / 2; lat <= n; lat += 0.5)
      for (let lon = Math.ceil(w * 2) / 2; lon <= e; lon += 0.5) {
        const speed = round(
          Math.max(2, 12 + 18 * Math.sin((h / 18) * Math.PI) + (lat - s) * 2 + rng.normal(0, 3)),
          1,
        )
        const from = 225 + rng.normal(0, 12)
        const to = ((from + 180) * Math.PI) / 180
        out.push({
          geometry: { type: 'Point', coordinates: [lon, lat] },
          properties: {
            valid_time: iso(ctx.now + h * HOUR),
            wind_speed_mph: speed,
            wind_direction_deg: round((from + 360) % 360, 0),
            u_mph: round(speed * Math.sin(to), 2),
            v_mph: round(speed * Math.cos(to), 2),
          },
        })
      }
  return out
}
