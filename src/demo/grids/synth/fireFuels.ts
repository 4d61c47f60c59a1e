// The demo's fire landscape (issue #31): FBFM40 fuel models from the synthetic land cover and the
// elevation they are drawn on, at twice the resolution of the demo grids (0.005°, ~500 m), so the fire
// engine burns plausible New Mexico fuels: grass on the plains, grass-shrub and shrub on the mesas,
// pinyon-juniper, ponderosa and spruce-fir timber up the ranges, nothing in towns, water and sand.
import {
  emptyRaster,
  fillRaster,
  sampleNearest,
  type GridRaster,
  type GridShape,
} from '../../../server/grids/gridRaster'
import { coverAt, type CoverKind } from './landCover'
import { fbm } from './noise'
import { elevationAt } from './terrain'

/** FBFM40 codes (config/fuel-models.yaml). */
export const FBFM40 = {
  NB1_URBAN: 91,
  NB3_AGRICULTURE: 93,
  NB8_WATER: 98,
  NB9_BARREN: 99,
  GR1: 101,
  GR2: 102,
  GS1: 121,
  GS2: 122,
  SH2: 142,
  SH5: 145,
  TU1: 161,
  TU5: 165,
  TL3: 183,
  TL8: 188,
} as const

/**
 * The fuel model of a cover kind and fraction (0..1) at an elevation (m), with `n` a 0..1 noise value
 * that varies the model between neighbours of the same cover:
 * - water NB8 (98), towns NB1 (91), bare ground and sand NB9 (99), cropland NB3 (93);
 * - grassland GR1 (sparse) or GR2, with GS1 patches where it is dense and high;
 * - shrubland GS1 (sparse), GS2, SH2 (dense), SH5 above 2,000 m where it is densest (oak brush);
 * - forest by elevation: pinyon-juniper (below ~2,300 m) TU1, ponderosa pine (to ~2,900 m) TL8 (TU5
 *   where dense), spruce-fir above TL3.
 */
export function fbfm40For(kind: CoverKind, fraction: number, elevationM: number, n: number): number {
  switch (kind) {
    case 'water':
      return FBFM40.NB8_WATER
    case 'urban':
    case 'developed':
      return FBFM40.NB1_URBAN
    case 'barren':
      return FBFM40.NB9_BARREN
    case 'crops':
      return FBFM40.NB3_AGRICULTURE
    case 'herbaceous':
      if (fraction < 0.35) return FBFM40.GR1
      return fraction > 0.7 && elevationM > 1900 && n > 0.5 ? FBFM40.GS1 : FBFM40.GR2
    case 'shrub':
      if (fraction < 0.3) return FBFM40.GS1
      if (fraction < 0.55) return FBFM40.GS2
      return elevationM > 2000 && fraction > 0.7 && n > 0.4 ? FBFM40.SH5 : FBFM40.SH2
    case 'tree': {
      const line = (n - 0.5) * 150
      if (elevationM < 2300 + line) return FBFM40.TU1
      if (elevationM < 2900 + line) return fraction > 0.75 ? FBFM40.TU5 : FBFM40.TL8
      return FBFM40.TL3
    }
  }
}

/** The fine shape of the fire landscape: each demo cell split in `factor` × `factor`. */
export function fireShape(shape: GridShape, factor = 2): GridShape {
  return { ...shape, nx: shape.nx * factor, ny: shape.ny * factor }
}

/**
 * Elevation (m) and FBFM40 fuel grids on `shape`, inside the state (the demo elevation grid's no-data
 * cells stay no data); population (residents per km²) decides towns as it does for the land cover.
 */
export function fireLandscapeGrids(
  shape: GridShape,
  demoElevation: GridRaster,
  population: GridRaster,
  seed: number,
): { elevation: GridRaster; fuel: GridRaster } {
  const fuel = emptyRaster(shape)
  const elevation = fillRaster(emptyRaster(shape), (lon, lat, k) => {
    if (Number.isNaN(sampleNearest(demoElevation, lon, lat))) return Number.NaN
    const z = elevationAt(lon, lat, seed)
    const people = sampleNearest(population, lon, lat)
    const [kind, fraction] = coverAt(lon, lat, z, Number.isNaN(people) ? 0 : people, seed)
    fuel.data[k] = fbfm40For(kind, fraction, z, fbm(lon * 30, lat * 30, seed + 41, 2))
    return z
  })
  return { elevation, fuel }
}
