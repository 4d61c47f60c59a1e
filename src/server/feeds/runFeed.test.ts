import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type FeedDefinition, feedsConfig, type FeedsConfig } from '../../shared/config'
import { defaultCatalog } from '../store/catalog'
import { FeedStore } from '../store/feedStore'
import { openStore, type SqliteStore } from '../store/sqliteStore'
import { runFeed } from './runFeed'

const FIX = path.resolve(import.meta.dirname, '../../../tests/fixtures/feeds')
const HUB = 'wfigs_incident_locations_hub_download_2026-07-30_florida.geojson'
const stores: SqliteStore[] = []

function tempStore(): SqliteStore {
  const store = openStore(fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-feed-')), defaultCatalog())
  stores.push(store)
  return store
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close()
})

const feed = (id: string, config: FeedsConfig = feedsConfig): FeedDefinition => {
  const f = config.feeds.find((x) => x.id === id)
  if (!f) throw new Error(`no feed ${id}`)
  return f
}

async function run(
  store: SqliteStore,
  id: string,
  file: string,
  o: { now: string; bbox?: number[]; config?: FeedsConfig },
) {
  const config = o.config ?? feedsConfig
  const r = await runFeed({ store, config, now: Date.parse(o.now), bbox: o.bbox }, feed(id, config), {
    file: path.join(FIX, file),
  })
  if (!r.ok) throw new Error(r.error)
  return r.summary
}

const rows = (store: SqliteStore, dataset: string) =>
  store.records(dataset, [], 1000, 0).records as Record<string, unknown>[]

describe('shipped feeds on the real samples', () => {
  it('firms-viirs: static 7-day file, territory filter, retention from --now, UTC times, kelvin to °C', async () => {
    const store = tempStore()
    const s = await run(store, 'firms-viirs', 'viirs_snpp_conus_7d_2025-11-05_nm.csv', {
      now: '2025-11-05T12:00:00Z',
    })
    expect(s).toMatchObject({
      read: 305,
      outsideTerritory: 78,
      expired: 120,
      kept: 107,
      rejected: 0,
      stored: 107,
    })
    expect(s.newest).toBe('2025-11-05T08:45:00.000Z')
    const all = rows(store, 'thermal_hot_spots')
    expect(new Set(all.map((r) => r.satellite))).toEqual(new Set(['Suomi NPP']))
    expect(new Set(all.map((r) => r.instrument))).toEqual(new Set(['VIIRS']))
    expect(all.every((r) => ['low', 'nominal', 'high'].includes(String(r.confidence)))).toBe(true)
    // Every kept detection lies in the New Mexico box.
    for (const r of all) {
      const [w, s2, e, n] = r.bbox as number[]
      expect(w).toBeGreaterThanOrEqual(-109.05)
      expect(e).toBeLessThanOrEqual(-103)
      expect(s2).toBeGreaterThanOrEqual(31.33)
      expect(n).toBeLessThanOrEqual(37)
    }
    // Row "35.0498,-106.75367,306.25,…,2025-10-29,0915,N,nominal,…,0.7" is outside the 72 h window.
    const one = await run(store, 'firms-viirs', 'viirs_snpp_conus_7d_2025-11-05_nm.csv', {
      now: '2025-10-29T12:00:00Z',
    })
    expect(one.kept).toBeGreaterThan(0)
    const hit = rows(store, 'thermal_hot_spots').find(
      (r) => r.acquired === '2025-10-29T09:15:00.000Z' && r.radiative_power_mw === 0.7,
    )
    expect(hit).toMatchObject({ satellite: 'Suomi NPP', confidence: 'nominal', instrument: 'VIIRS' })
    expect(hit?.temperature_c).toBeCloseTo(306.25 - 273.15, 6)
  })

  it('firms-viirs: NOAA-20 written as satellite "1" in 2020', async () => {
    const store = tempStore()
    const s = await run(store, 'firms-viirs', 'viirs_noaa20_conus_7d_2020-10-03_west.csv', {
      now: '2020-10-03T12:00:00Z',
    })
    expect(s.read).toBe(423)
    expect(s.rejected).toBe(0)
    expect(new Set(rows(store, 'thermal_hot_spots').map((r) => r.satellite))).toEqual(new Set(['NOAA-20']))
  })

  it('firms-modis: archive columns (Terra/Aqua, instrument) and 0-100 confidence bands', async () => {
    const store = tempStore()
    const s = await run(store, 'firms-modis', 'modis_c61_archive_2020-08-15_to_09-22_california.csv', {
      now: '2020-09-22T12:00:00Z',
      bbox: [-125, 32, -114, 42],
    })
    expect(s).toMatchObject({ read: 349, rejected: 0 })
    const all = rows(store, 'thermal_hot_spots')
    expect(all.length).toBe(s.kept)
    expect(new Set(all.map((r) => r.instrument))).toEqual(new Set(['MODIS']))
    expect(all.every((r) => r.satellite === 'Terra' || r.satellite === 'Aqua')).toBe(true)
    const s2 = await run(tempStore(), 'firms-modis', 'modis_c61_conus_7d_2025-04-28_west.csv', {
      now: '2025-04-28T23:00:00Z',
    })
    expect(s2).toMatchObject({ read: 443, outsideTerritory: 434, rejected: 0 })
  })

  it('firms merge: a re-delivered detection is not duplicated, older rows expire', async () => {
    const store = tempStore()
    const first = await run(store, 'firms-viirs', 'viirs_snpp_conus_7d_2025-11-05_nm.csv', {
      now: '2025-11-05T12:00:00Z',
    })
    const again = await run(store, 'firms-viirs', 'viirs_snpp_conus_7d_2025-11-05_nm.csv', {
      now: '2025-11-05T12:00:00Z',
    })
    expect(again.stored).toBe(first.stored)
    expect(again.duplicates).toBe(first.kept)
    const later = await run(store, 'firms-viirs', 'viirs_snpp_conus_7d_2025-11-05_nm.csv', {
      now: '2025-11-07T00:00:00Z',
    })
    expect(later.stored).toBeLessThan(first.stored)
    // MODIS rows of the same dataset are kept beside the VIIRS ones.
    const modis = await run(store, 'firms-modis', 'modis_c61_conus_7d_2025-04-28_west.csv', {
      now: '2025-04-28T23:00:00Z',
    })
    expect(modis.stored).toBe(later.stored + modis.kept)
  })

  it('wfigs-incidents + wfigs-perimeters: joined on the IRWIN id, perimeter drawn instead of the point', async () => {
    const store = tempStore()
    const florida = [-88, 24, -79, 31]
    const inc = await run(
      store,
      'wfigs-incidents',
      'wfigs_incident_locations_current_2026-07-30_florida.geojson',
      { now: '2026-07-30T22:00:00Z', bbox: florida },
    )
    expect(inc).toMatchObject({ read: 14, filteredOut: 4, kept: 10, stored: 10 })
    const before = rows(store, 'fire_extent_active').find(
      (r) => r.incident_name === 'SOUTH CANAL- LAFAYETTE (34)',
    )
    expect(before).toMatchObject({
      irwin_id: '{097653FF-B190-4EB3-971E-7B71D921F7D1}',
      acres: 2265,
      percent_contained: 97,
      fire_cause: 'Natural',
      discovered: '2026-05-03T20:15:00.000Z',
    })
    const per = await run(store, 'wfigs-perimeters', 'synthetic/wfigs_perimeters_SYNTHETIC.geojson', {
      now: '2026-07-30T22:00:00Z',
      bbox: florida,
    })
    expect(per).toMatchObject({ read: 1, kept: 1, stored: 10 })
    const after = rows(store, 'fire_extent_active').find(
      (r) => r.incident_name === 'SOUTH CANAL- LAFAYETTE (34)',
    )
    const [w, , e] = after?.bbox as number[]
    const [bw, , be] = before?.bbox as number[]
    expect((e as number) - (w as number)).toBeGreaterThan((be as number) - (bw as number))
    expect(after?.acres).toBe(2265)
  })

  it('wfigs-incidents reads the Hub download, whose dates are RFC 1123 strings, as the service answer', async () => {
    const florida = [-88, 24, -79, 31]
    const now = '2026-07-30T22:00:00Z'
    const hubStore = tempStore()
    const hub = await run(hubStore, 'wfigs-incidents', HUB, { now, bbox: florida })
    expect(hub).toMatchObject({ read: 14, filteredOut: 4, rejected: 0, kept: 10, stored: 10 })
    const service = tempStore()
    const answer = await run(
      service,
      'wfigs-incidents',
      'wfigs_incident_locations_current_2026-07-30_florida.geojson',
      {
        now,
        bbox: florida,
      },
    )
    // The same wildfires at the same instants (the Hub writes whole seconds).
    const seconds = (r: Record<string, unknown>) => ({
      ...r,
      modified: String(r.modified).replace(/\.\d{3}Z$/, '.000Z'),
    })
    expect(rows(hubStore, 'fire_extent_active')).toEqual(rows(service, 'fire_extent_active').map(seconds))
    expect(
      rows(hubStore, 'fire_extent_active').find((r) => r.incident_name === 'SOUTH CANAL- LAFAYETTE (34)'),
    ).toMatchObject({
      discovered: '2026-05-03T20:15:00.000Z',
      modified: '2026-07-29T20:28:36.000Z',
    })
    expect(hub.newest).toBe(seconds({ modified: answer.newest }).modified)
  })

  it('a bad date rejects its wildfire with the feature number; a download of bad dates changes nothing', async () => {
    const florida = [-88, 24, -79, 31]
    const hub = JSON.parse(fs.readFileSync(path.join(FIX, HUB), 'utf8')) as {
      features: { properties: Record<string, unknown> }[]
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-hub-'))
    const write = (name: string, edit: (props: Record<string, unknown>, i: number) => void) => {
      const copy = structuredClone(hub)
      copy.features.forEach((f, i) => edit(f.properties, i))
      fs.writeFileSync(path.join(dir, name), JSON.stringify(copy))
      return path.join(dir, name)
    }
    const store = tempStore()
    const config = feedsConfig
    const runFile = (file: string) =>
      runFeed(
        { store, config, now: Date.parse('2026-07-30T22:00:00Z'), bbox: florida },
        feed('wfigs-incidents'),
        {
          file,
        },
      )
    // Feature 1 (a wildfire): 31 February; feature 5 (a wildfire): a weekday that is not the date's.
    const oneBad = await runFile(
      write('one-bad.geojson', (p, i) => {
        if (i === 0) p.ModifiedOnDateTime_dt = 'Tue, 31 Feb 2026 20:28:36 GMT'
        if (i === 4) p.FireDiscoveryDateTime = 'Tue, 06 Jul 2026 19:57:39 GMT'
      }),
    )
    if (!oneBad.ok) throw new Error(oneBad.error)
    expect(oneBad.summary).toMatchObject({ read: 14, rejected: 2, kept: 8, stored: 8 })
    expect(oneBad.summary.rejections).toEqual([
      {
        at: 'feature 1',
        reason: "ModifiedOnDateTime_dt: 'Tue, 31 Feb 2026 20:28:36 GMT' is not a valid RFC 1123 time",
      },
      {
        at: 'feature 5',
        reason: "FireDiscoveryDateTime: 'Tue, 06 Jul 2026 19:57:39 GMT': 06 Jul 2026 is not a Tue",
      },
    ])
    const version = store.info('fire_extent_active').version
    const allBad = await runFile(write('all-bad.geojson', (p) => (p.ModifiedOnDateTime_dt = 'yesterday')))
    expect(allBad.ok).toBe(false)
    if (allBad.ok) return
    expect(allBad.error).toMatch(
      /no record could be mapped \(feature 1: ModifiedOnDateTime_dt: 'yesterday' is not a time \(epoch seconds or milliseconds, ISO 8601 or RFC 1123\)\); the data is unchanged/,
    )
    expect(store.info('fire_extent_active')).toMatchObject({ version, count: 8 })
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('nws-fire-weather: event types, zone-only alerts kept off the map unless zones are declared', async () => {
    const store = tempStore()
    const s = await run(store, 'nws-fire-weather', 'synthetic/nws_fire_weather_nm_SYNTHETIC.json', {
      now: '2024-07-18T20:00:00Z',
    })
    expect(s).toMatchObject({ read: 3, filteredOut: 1, kept: 2, withoutGeometry: 1, stored: 2 })
    const [warning, watch] = rows(store, 'red_flag_warnings')
    expect(warning).toMatchObject({
      event: 'Red Flag Warning',
      effective: '2024-07-18T18:47:00.000Z',
      expires: '2024-07-20T02:00:00.000Z',
      severity: 'Severe',
    })
    expect(warning?.bbox).toHaveLength(4)
    // The zone-only Fire Weather Watch is kept as a record: in the table, without a bbox.
    expect(watch).toMatchObject({ event: 'Fire Weather Watch', bbox: null })
    // The dataset's extent is the located warning's.
    expect(store.info('red_flag_warnings').bbox).toEqual(warning?.bbox)
    const withZones: FeedsConfig = {
      ...feedsConfig,
      feeds: feedsConfig.feeds.map((f) =>
        f.id === 'nws-fire-weather'
          ? {
              ...f,
              geometry: {
                zones: {
                  file: path.join(FIX, 'synthetic/fire_weather_zones_nm_SYNTHETIC.geojson'),
                  codes: 'geocode.UGC',
                  idField: 'id',
                },
              },
            }
          : f,
      ),
    }
    const z = await run(store, 'nws-fire-weather', 'synthetic/nws_fire_weather_nm_SYNTHETIC.json', {
      now: '2024-07-18T20:00:00Z',
      config: withZones,
    })
    expect(z).toMatchObject({ kept: 2, withoutGeometry: 0, stored: 2 })
    expect(rows(store, 'red_flag_warnings').map((r) => r.bbox === null)).toEqual([false, false])
    // The real answer holds no fire-weather alert: an empty set replaces the warnings.
    const real = await run(store, 'nws-fire-weather', 'alerts_active_point_2024-07-18_phoenix_az.json', {
      now: '2024-07-18T20:00:00Z',
    })
    expect(real).toMatchObject({ read: 2, filteredOut: 2, kept: 0, stored: 0 })
  })

  it('synoptic-raws and mesowest-raws: latest observation per station, units converted', async () => {
    const store = tempStore()
    const s = await run(store, 'synoptic-raws', 'synoptic_timeseries_idaho_2026-01-23.json', {
      now: '2026-01-23T16:00:00Z',
      bbox: [-117, 42, -111, 49],
    })
    expect(s).toMatchObject({ kept: 2, stored: 2, rejected: 0 })
    const w3 = rows(store, 'weather_stations_raws').find((r) => r.nwsid === '046ID')
    expect(w3).toMatchObject({
      station_name: 'W3T13',
      elevation_ft: 4777,
      observed: '2026-01-23T15:50:00.000Z',
      relative_humidity_percent: 87.6,
    })
    expect(w3?.temperature_f).toBeCloseTo(-10.356 * 1.8 + 32, 4)
    expect(w3?.wind_speed_mph).toBeCloseTo(0.329 / 0.44704, 4)
    const m = await run(store, 'mesowest-raws', 'mesowest_raws_csv_BNDC1_2023-04-11.csv', {
      now: '2023-04-11T08:00:00Z',
      bbox: [-123, 36, -121, 38],
    })
    expect(m).toMatchObject({ read: 24, kept: 1, stored: 3 })
    expect(rows(store, 'weather_stations_raws').find((r) => r.nwsid === 'BNDC1')).toMatchObject({
      station_name: 'BEN LOMOND',
      elevation_ft: 2598,
      observed: '2023-04-11T07:50:00.000Z',
      temperature_f: 45,
      wind_gust_speed_mph: 10,
      precipitation_in: 84.74,
    })
  })

  it('nifc-historic, hifld-infrastructure and hms-smoke (KML, and the ArcGIS GeoJSON by YAML only)', async () => {
    const store = tempStore()
    const h = await run(store, 'nifc-historic', 'geomac_carr_2018-07-23-2002.geojson', {
      now: '2018-07-24T00:00:00Z',
      bbox: [-123, 40, -122, 41],
    })
    expect(h.stored).toBe(1)
    expect(rows(store, 'fire_extent_historic')[0]).toMatchObject({ incident_name: 'CARR', fire_year: 2018 })
    const f = await run(
      store,
      'hifld-infrastructure',
      'hifld_fire_stations_ca_2022-10-01_desert_subset.geojson',
      { now: '2022-10-01T00:00:00Z', bbox: [-118, 32, -114, 37] },
    )
    expect(f).toMatchObject({ read: 300, rejected: 0 })
    expect(new Set(rows(store, 'critical_infrastructure').map((r) => r.type))).toEqual(
      new Set(['Fire Station']),
    )
    const k = await run(store, 'hms-smoke', 'hms_smoke20261006_trimmed.kml', {
      now: '2026-10-07T00:00:00Z',
      bbox: [-125, 24, -66, 50],
    })
    expect(k).toMatchObject({ read: 4, kept: 4, rejected: 0 })
    expect(rows(store, 'observed_smoke').map((r) => [r.density, r.density_rank])).toEqual([
      ['Light', 1],
      ['Light', 1],
      ['Medium', 2],
      ['Heavy', 3],
    ])
    expect(rows(store, 'observed_smoke')[0]).toMatchObject({
      satellite: 'GOES-EAST',
      start_time: '2026-10-06T17:00:00.000Z',
      end_time: '2026-10-06T20:00:00.000Z',
    })
    const arcgis: FeedsConfig = {
      ...feedsConfig,
      feeds: [
        {
          ...feed('hms-smoke'),
          format: 'geojson',
          fields: {
            density: {
              from: 'Density',
              lookup: { Light: 'Light', Medium: 'Medium', Heavy: 'Heavy' },
              required: true,
            },
            density_rank: { from: 'Density', lookup: { Light: 1, Medium: 2, Heavy: 3 } },
            satellite: { from: 'Satellite' },
            start_time: { from: 'Start', time: 'yearDayHhmm' },
            end_time: { from: 'End_', orFrom: 'End', time: 'yearDayHhmm' },
          },
        },
      ],
    }
    const g = await run(store, 'hms-smoke', 'hms_smoke_arcgis_featureserver_2026-07-30.geojson', {
      now: '2026-07-31T00:00:00Z',
      bbox: [-180, -90, 180, 90],
      config: arcgis,
    })
    expect(g).toMatchObject({ read: 79, kept: 79, rejected: 0, stored: 79 })
  })
})

describe('bad input', () => {
  it('skips rows that cannot be mapped, naming their line, and keeps the rest', async () => {
    const store = tempStore()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bad-'))
    const text = fs.readFileSync(path.join(FIX, 'viirs_snpp_conus_7d_2025-11-05_nm.csv'), 'utf8').split('\n')
    text[2] = (text[2] ?? '').replace('35.0498,-106.75367', ',') // missing coordinates
    text[3] = (text[3] ?? '').replace(/2025-10-29,\d{4}/, '2025-10-29,9999') // unparseable time
    text[4] = (text[4] ?? '').replace(',N,nominal,', ',X9,nominal,') // unknown satellite code
    fs.writeFileSync(path.join(dir, 'bad.csv'), text.join('\n'))
    const r = await runFeed(
      { store, config: feedsConfig, now: Date.parse('2025-10-30T00:00:00Z') },
      feed('firms-viirs'),
      { file: path.join(dir, 'bad.csv') },
    )
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.summary.rejected).toBe(3)
    expect(r.summary.rejections).toEqual([
      { at: 'line 3', reason: 'missing coordinates (longitude, latitude)' },
      { at: 'line 4', reason: "acq_date: '9999' is not HHMM" },
      { at: 'line 5', reason: 'satellite: unknown value "X9"' },
    ])
  })

  it('a file that is not the declared format fails the run and changes nothing', async () => {
    const store = tempStore()
    await run(store, 'hms-smoke', 'hms_smoke20261006_trimmed.kml', {
      now: '2026-10-07T00:00:00Z',
      bbox: [-125, 24, -66, 50],
    })
    const version = store.info('observed_smoke').version
    for (const [id, file] of [
      ['hms-smoke', 'viirs_snpp_conus_7d_2025-11-05_nm.csv'],
      ['firms-viirs', 'hms_smoke20261006_trimmed.kml'],
      ['firms-viirs', 'wfigs_incident_locations_current_2026-07-30_florida.geojson'],
      ['wfigs-incidents', 'viirs_snpp_conus_7d_2025-11-05_nm.csv'],
      ['synoptic-raws', 'alerts_active_point_2024-07-18_phoenix_az.json'],
      ['mesowest-raws', 'synoptic_timeseries_idaho_2026-01-23.json'],
    ] as const) {
      const r = await runFeed({ store, config: feedsConfig, now: Date.now() }, feed(id), {
        file: path.join(FIX, file),
      })
      expect(r.ok, `${id} reading ${file}`).toBe(false)
    }
    expect(store.info('observed_smoke').version).toBe(version)
    expect(store.info('observed_smoke').count).toBe(4)
    const status = new FeedStore(store.db).status('hms-smoke')
    expect(status?.lastError).toMatch(/not KML/)
    expect(status?.failures).toBe(1)
  })
})
