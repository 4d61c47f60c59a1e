import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { MultiPolygon, Polygon } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'

export interface Place {
  name: string
  county: string
  lat: number
  lon: number
  population: number
  kind: string
}

export interface County {
  name: string
  fips: string
  geometry: Polygon | MultiPolygon
}

export interface Geography {
  places: Place[]
  counties: County[]
  state: Polygon | MultiPolygon
  bbox: [number, number, number, number]
  contains(lon: number, lat: number): boolean
}

const NM_FIPS = '35'
const require = createRequire(import.meta.url)
export const PLACES_CSV = path.resolve(import.meta.dirname, '../../tests/fixtures/nm-places.csv')

export function readPlaces(file = PLACES_CSV): Place[] {
  const [header, ...lines] = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/)
  const cols = (header ?? '').split(',')
  return lines.map((line) => {
    const v = line.split(',')
    const at = (name: string): string => v[cols.indexOf(name)] ?? ''
    return {
      name: at('name'),
      county: at('county'),
      lat: Number(at('lat')),
      lon: Number(at('lon')),
      population: Number(at('population')),
      kind: at('kind'),
    }
  })
}

function readTopology(file: string): Topology {
  return JSON.parse(fs.readFileSync(require.resolve(`us-atlas/${file}`), 'utf8')) as Topology
}

function polygons(g: Polygon | MultiPolygon): number[][][][] {
  return g.type === 'Polygon' ? [g.coordinates] : g.coordinates
}

function inRing(lon: number, lat: number, ring: number[][]): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number]
    const [xj, yj] = ring[j] as [number, number]
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

export function inPolygon(lon: number, lat: number, g: Polygon | MultiPolygon): boolean {
  return polygons(g).some(
    (poly) => inRing(lon, lat, poly[0] ?? []) && !poly.slice(1).some((h) => inRing(lon, lat, h)),
  )
}

let cached: Geography | null = null

/** New Mexico: the state outline and counties (us-atlas, 1:10m) and the places of the fixture. */
export function newMexico(): Geography {
  if (cached) return cached
  const states = readTopology('states-10m.json')
  const counties = readTopology('counties-10m.json')
  const stateFc = feature(states, states.objects.states as GeometryCollection<{ name: string }>)
  const nm = stateFc.features.find((f) => String(f.id) === NM_FIPS)
  if (!nm || (nm.geometry.type !== 'Polygon' && nm.geometry.type !== 'MultiPolygon'))
    throw new Error('us-atlas: no New Mexico')
  const state = nm.geometry
  const countyFc = feature(counties, counties.objects.counties as GeometryCollection<{ name: string }>)
  const nmCounties: County[] = []
  for (const f of countyFc.features) {
    const fips = String(f.id)
    if (!fips.startsWith(NM_FIPS) || (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon'))
      continue
    nmCounties.push({ name: f.properties?.name ?? fips, fips, geometry: f.geometry })
  }
  nmCounties.sort((a, b) => a.fips.localeCompare(b.fips))
  const bbox: [number, number, number, number] = [180, 90, -180, -90]
  for (const poly of polygons(state))
    for (const [x, y] of (poly[0] ?? []) as [number, number][]) {
      bbox[0] = Math.min(bbox[0], x)
      bbox[1] = Math.min(bbox[1], y)
      bbox[2] = Math.max(bbox[2], x)
      bbox[3] = Math.max(bbox[3], y)
    }
  cached = {
    places: readPlaces(),
    counties: nmCounties,
    state,
    bbox,
    contains: (lon, lat) => inPolygon(lon, lat, state),
  }
  return cached
}

const M_PER_DEG = 111_320

/** The point `dx` metres east and `dy` metres north of (lon, lat). */
export function offset(lon: number, lat: number, dx: number, dy: number): [number, number] {
  return [lon + dx / (M_PER_DEG * Math.cos((lat * Math.PI) / 180)), lat + dy / M_PER_DEG]
}

/** Great-circle-free distance in metres (equirectangular; fine within a state). */
export function distanceM(a: readonly number[], b: readonly number[]): number {
  const lat = (((a[1] as number) + (b[1] as number)) / 2) * (Math.PI / 180)
  const dx = ((b[0] as number) - (a[0] as number)) * M_PER_DEG * Math.cos(lat)
  const dy = ((b[1] as number) - (a[1] as number)) * M_PER_DEG
  return Math.hypot(dx, dy)
}

export function lineLengthM(coords: readonly number[][]): number {
  let s = 0
  for (let i = 1; i < coords.length; i++) s += distanceM(coords[i - 1] as number[], coords[i] as number[])
  return s
}

export const M_PER_MILE = 1609.344
