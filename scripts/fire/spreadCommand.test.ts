import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson'
import { afterAll, describe, expect, it } from 'vitest'
import { fire, gdalInfo, readAscii, toLonLat, writeBands, writeRaster } from './testRasters'

const dir = mkdtempSync(path.join(tmpdir(), 'h9-spread-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// 101 × 101 cells of 30 m: GS2 everywhere but a north–south line of NB1 (91) 25 cells east of the centre.
const N = 101
const C = 50
const BARRIER_COL = C + 25
const grid = (f: (col: number, row: number) => number) =>
  Array.from({ length: N }, (_, row) => Array.from({ length: N }, (_, col) => f(col, row)))
const X0 = -1_000_000
const Y0 = 1_500_000
const [lon, lat] = toLonLat(X0 + (C + 0.5) * 30, Y0 - (C + 0.5) * 30)
const LANDSCAPE = [
  '--fuel',
  writeRaster(
    dir,
    'fuel',
    grid((col) => (col === BARRIER_COL ? 91 : 122)),
    { type: 'Int16' },
  ),
  '--fuel-models',
  'fbfm40',
  '--slope',
  writeRaster(
    dir,
    'slope',
    grid(() => 0),
    { type: 'Int16' },
  ),
  '--slope-units',
  'degrees',
  '--aspect',
  writeRaster(
    dir,
    'aspect',
    grid(() => -1),
    { type: 'Int16' },
  ),
  '--moisture',
  '4,5,6,60,90',
  '--wind-height',
  '20ft',
]
const IGNITION = ['--ignition', `${lon},${lat}`, '--hours', '3']

type Iso = FeatureCollection<Polygon | MultiPolygon, { hour: number; minutes: number; time?: string }>
const rings = (g: Polygon | MultiPolygon): Position[][] =>
  g.type === 'Polygon' ? [g.coordinates[0]!] : g.coordinates.map((p) => p[0]!)
function inside([x, y]: Position, ring: Position[]): boolean {
  let k = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number]
    const [xj, yj] = ring[j] as [number, number]
    if (yi > y! !== yj > y! && x! < ((xj - xi) * (y! - yi)) / (yj - yi) + xi) k = !k
  }
  return k
}

/** Distance (degrees) from a point to a ring's outline. */
function distanceToRing([x, y]: Position, ring: Position[]): number {
  let best = Infinity
  for (let i = 0; i + 1 < ring.length; i++) {
    const [ax, ay] = ring[i] as [number, number]
    const [bx, by] = ring[i + 1] as [number, number]
    const dx = bx - ax
    const dy = by - ay
    const t = Math.max(0, Math.min(1, ((x! - ax) * dx + (y! - ay) * dy) / (dx * dx + dy * dy || 1)))
    best = Math.min(best, Math.hypot(x! - ax - t * dx, y! - ay - t * dy))
  }
  return best
}

describe('npm run fire -- spread', { timeout: 180_000 }, () => {
  const out = path.join(dir, 'out')
  const run = fire([
    'spread',
    ...LANDSCAPE,
    '--wind',
    '10',
    '--wind-from',
    '270',
    ...IGNITION,
    '--start',
    '2026-07-01T13:00Z',
    '--out',
    out,
  ])

  it('writes minutes since ignition on the fuel grid: 0 at the ignition, none beyond 3 h, nothing past the non-burnable line', () => {
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const summary = JSON.parse(run.stdout) as { burned_ha_by_hour: number[] }
    expect(summary.burned_ha_by_hour).toHaveLength(3)
    expect(summary.burned_ha_by_hour[0]!).toBeLessThan(summary.burned_ha_by_hour[2]!)
    const info = gdalInfo(path.join(out, 'arrival_minutes.tif'))
    const fuel = gdalInfo(path.join(dir, 'fuel.tif'))
    expect([info.size, info.geoTransform, info.coordinateSystem.wkt]).toEqual([
      fuel.size,
      fuel.geoTransform,
      fuel.coordinateSystem.wkt,
    ])
    expect(info.bands[0]!.noDataValue).toBe(-9999)
    const arrival = readAscii(path.join(out, 'arrival_minutes.tif')).values
    expect(arrival[C]![C]).toBe(0)
    let burned = 0
    arrival.forEach((r, row) =>
      r.forEach((t, col) => {
        if (t === -9999) return
        burned++
        expect(t, `column ${col}, row ${row}`).toBeLessThanOrEqual(180)
        expect(col, `column ${col}, row ${row} burned`).toBeLessThan(BARRIER_COL)
      }),
    )
    expect(arrival[C]![BARRIER_COL - 1]).toBeLessThan(180) // the head reached the line and stopped there
    expect(burned).toBeGreaterThan(100)
  })

  it('writes one isochrone per hour in lon/lat, with hour and time, each inside the next', () => {
    const iso = JSON.parse(readFileSync(path.join(out, 'isochrones.geojson'), 'utf8')) as Iso
    expect(iso.features.map((f) => f.properties.hour)).toEqual([1, 2, 3])
    expect(iso.features.map((f) => f.properties.time)).toEqual([
      '2026-07-01T14:00:00Z',
      '2026-07-01T15:00:00Z',
      '2026-07-01T16:00:00Z',
    ])
    for (const f of iso.features)
      for (const ring of rings(f.geometry))
        for (const [x, y] of ring as [number, number][]) {
          expect(Math.abs(x - lon)).toBeLessThan(0.05)
          expect(Math.abs(y - lat)).toBeLessThan(0.05)
        }
    // Each hour's outline lies inside the next hour's (or on it, where both stop at the non-burnable line).
    for (let h = 0; h + 1 < iso.features.length; h++) {
      const outer = rings(iso.features[h + 1]!.geometry)
      for (const ring of rings(iso.features[h]!.geometry))
        for (const p of ring)
          expect(
            outer.some((o) => inside(p, o) || distanceToRing(p, o) < 1e-6),
            `hour ${h + 1} point ${String(p)}`,
          ).toBe(true)
    }
    // And the ignition lies inside the first.
    expect(rings(iso.features[0]!.geometry).some((r) => inside([lon, lat], r))).toBe(true)
  })

  it('follows hourly wind grids: a wind turning from west to south turns the fire north after the first hour', () => {
    const west = grid(() => 270)
    const south = grid(() => 180)
    const speed = grid(() => 10)
    const windArgs = [
      '--wind-grid',
      writeBands(dir, 'speed', [speed, speed, speed]),
      '--wind-from-grid',
      writeBands(dir, 'from', [west, south, south]),
    ]
    const turned = fire(['spread', ...LANDSCAPE, ...windArgs, ...IGNITION, '--out', path.join(dir, 'turned')])
    expect(turned.stderr).toBe('')
    const a = readAscii(path.join(out, 'arrival_minutes.tif')).values
    const b = readAscii(path.join(dir, 'turned', 'arrival_minutes.tif')).values
    const northReach = (g: number[][]) => C - g.findIndex((r) => r[C] !== -9999)
    expect(northReach(b)).toBeGreaterThan(northReach(a) + 5)
    // The first hour is the same fire.
    a.forEach((r, row) =>
      r.forEach((t, col) =>
        expect(t !== -9999 && t <= 60, `column ${col}, row ${row}`).toBe(
          b[row]![col]! !== -9999 && b[row]![col]! <= 60,
        ),
      ),
    )
  })

  it('refuses an ignition outside the landscape, naming --ignition', () => {
    const bad = fire([
      'spread',
      ...LANDSCAPE,
      '--wind',
      '10',
      '--wind-from',
      '270',
      '--ignition',
      '-100,45',
      '--hours',
      '1',
      '--out',
      path.join(dir, 'bad'),
    ])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('fire spread: --ignition -100,45 lies outside the landscape of --fuel\n')
  })
})
