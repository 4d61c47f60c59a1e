import type { Feature, MultiPolygon, Polygon } from 'geojson'
import { createRequire } from 'node:module'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import { cellLat, cellLon, type GridShape } from '../../../server/grids/gridRaster'

const NEW_MEXICO_FIPS = '35'

/** New Mexico's outline rings ([lon, lat][]), from the us-atlas 1:10m states topology. */
export function newMexicoRings(): number[][][] {
  const require = createRequire(import.meta.url)
  const topology = require('us-atlas/states-10m.json') as Topology<{ states: GeometryCollection }>
  const states = feature(topology, topology.objects.states)
  const nm = states.features.find((f) => String(f.id) === NEW_MEXICO_FIPS) as
    Feature<Polygon | MultiPolygon> | undefined
  if (!nm) throw new Error('New Mexico not found in us-atlas')
  const g = nm.geometry
  return g.type === 'Polygon' ? g.coordinates : g.coordinates.flat()
}

/** 1 for cells whose centre is inside the state, else 0 (even-odd scanline fill, rows north first). */
export function maskFromRings(grid: GridShape, rings: number[][][]): Uint8Array {
  const mask = new Uint8Array(grid.nx * grid.ny)
  const dx = (grid.east - grid.west) / grid.nx
  for (let j = 0; j < grid.ny; j++) {
    const lat = cellLat(grid, j)
    const crossings: number[] = []
    for (const ring of rings) {
      for (let k = 0, m = ring.length - 1; k < ring.length; m = k++) {
        const [x1, y1] = ring[k] as [number, number]
        const [x2, y2] = ring[m] as [number, number]
        if (y1 > lat !== y2 > lat) crossings.push(x1 + ((lat - y1) / (y2 - y1)) * (x2 - x1))
      }
    }
    crossings.sort((a, b) => a - b)
    for (let c = 0; c + 1 < crossings.length; c += 2) {
      const from = Math.max(0, Math.ceil((crossings[c]! - grid.west) / dx - 0.5))
      const to = Math.min(grid.nx - 1, Math.floor((crossings[c + 1]! - grid.west) / dx - 0.5))
      for (let i = from; i <= to; i++) if (cellLon(grid, i) <= crossings[c + 1]!) mask[j * grid.nx + i] = 1
    }
  }
  return mask
}
