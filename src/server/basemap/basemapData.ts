import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import type { Feature, FeatureCollection, Geometry, Point, Polygon, MultiPolygon } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'

/** Area the basemap covers: New Mexico and its neighbours (lon/lat). */
export const BASEMAP_BOUNDS = { west: -116, east: -96, south: 28, north: 42 }

export interface BasemapLayers {
  readonly states: FeatureCollection
  readonly counties: FeatureCollection
  readonly county_labels: FeatureCollection<Point>
  readonly places: FeatureCollection<Point>
}

type Area = Polygon | MultiPolygon

function ringsOf(g: Geometry): number[][][] {
  if (g.type === 'Polygon') return g.coordinates
  if (g.type === 'MultiPolygon') return g.coordinates.flat()
  return []
}

function bbox(g: Geometry): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const ring of ringsOf(g))
    for (const [x = 0, y = 0] of ring) {
      w = Math.min(w, x)
      e = Math.max(e, x)
      s = Math.min(s, y)
      n = Math.max(n, y)
    }
  return [w, s, e, n]
}

const inBounds = (g: Geometry) => {
  const [w, s, e, n] = bbox(g)
  const b = BASEMAP_BOUNDS
  return e >= b.west && w <= b.east && n >= b.south && s <= b.north
}

/** Label point of an area: the centre of its largest ring's bounding box. */
function labelPoint(g: Geometry): [number, number] {
  const rings = ringsOf(g)
  const biggest = rings.reduce<number[][]>((best, r) => (r.length > best.length ? r : best), rings[0] ?? [])
  const [w, s, e, n] = bbox({ type: 'Polygon', coordinates: [biggest] })
  return [(w + e) / 2, (s + n) / 2]
}

function loadTopology(name: string): Topology<{ [k: string]: GeometryCollection }> {
  const require = createRequire(import.meta.url)
  return require(`us-atlas/${name}`) as Topology<{ [k: string]: GeometryCollection }>
}

function areas(
  topology: Topology<{ [k: string]: GeometryCollection }>,
  object: string,
): Feature<Area, { name?: string }>[] {
  const geo = topology.objects[object]
  if (!geo) throw new Error(`us-atlas has no ${object}`)
  const fc = feature(topology, geo) as FeatureCollection<Area, { name?: string }>
  return fc.features.filter((f) => f.geometry && inBounds(f.geometry))
}

/** Places from the shipped CSV (name, county, lat, lon, population, kind). */
export function readPlaces(file = resolve(import.meta.dirname, 'nm-places.csv')): FeatureCollection<Point> {
  const [header = '', ...lines] = readFileSync(file, 'utf8').trim().split('\n')
  const cols = header.split(',')
  const at = (row: string[], name: string) => row[cols.indexOf(name)] ?? ''
  const features = lines.map((line): Feature<Point> => {
    const row = line.split(',')
    return {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [Number(at(row, 'lon')), Number(at(row, 'lat'))] },
      properties: { name: at(row, 'name'), population: Number(at(row, 'population')), kind: at(row, 'kind') },
    }
  })
  return {
    type: 'FeatureCollection',
    features: features.filter((f) => f.geometry.coordinates.every(Number.isFinite)),
  }
}

/** The offline basemap's layers: state and county outlines from us-atlas, county label points, NM places. */
export function loadBasemapLayers(): BasemapLayers {
  const states = areas(loadTopology('states-10m.json'), 'states')
  const counties = areas(loadTopology('counties-10m.json'), 'counties')
  const clean = (f: Feature<Area, { name?: string }>): Feature<Area> => ({
    type: 'Feature',
    geometry: f.geometry,
    properties: { name: f.properties?.name ?? '' },
  })
  return {
    states: { type: 'FeatureCollection', features: states.map(clean) },
    counties: { type: 'FeatureCollection', features: counties.map(clean) },
    county_labels: {
      type: 'FeatureCollection',
      features: counties.map((f) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: labelPoint(f.geometry) },
        properties: { name: f.properties?.name ?? '' },
      })),
    },
    places: readPlaces(),
  }
}
