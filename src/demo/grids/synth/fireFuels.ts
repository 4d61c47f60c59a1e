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

/** A cell's canopy fuel, in the server's grid units (LANDFIRE's CC, CH, CBH, CBD decoded). */
export interface Canopy {
  coverPercent: number
  heightM: number
  baseHeightM: number
  bulkDensityKgPerM3: number
}

const NO_CANOPY: Canopy = { coverPercent: 0, heightM: 0, baseHeightM: 0, bulkDensityKgPerM3: 0 }

/**
 * The canopy over a fuel model: none but on the timber models, where cover grows with the land cover's
 * fraction and height and base height vary with `n` (0..1 noise) in the ranges LANDFIRE maps for New
 * Mexico's forests — pinyon-juniper (TU1) low and open; ponderosa pine (TL8) tall with a high base;
 * dense ponderosa and mixed conifer (TU5) and spruce-fir (TL3) with low bases and denser crowns, where
 * a wind-driven fire crowns.
 */
export function canopyFor(code: number, fraction: number, n: number): Canopy {
  const f = Math.min(1, Math.max(0, fraction))
  const canopy = (cover: number, height: number, base: number, bulk: number): Canopy => ({
    coverPercent: Math.round(cover),
    heightM: Math.round(height * 10) / 10,
    baseHeightM: Math.round(base * 10) / 10,
    bulkDensityKgPerM3: Math.round(bulk * 100) / 100,
  })
  switch (code) {
    case FBFM40.TU1:
      return canopy(25 + 35 * f, 5 + 3 * n, 0.8 + 1.2 * n, 0.04 + 0.06 * f)
    case FBFM40.TL8:
      return canopy(35 + 30 * f, 15 + 8 * n, 3 + 3 * n, 0.05 + 0.05 * f)
    case FBFM40.TU5:
      return canopy(55 + 25 * f, 18 + 6 * n, 1.5 + 1.5 * n, 0.1 + 0.08 * f)
    case FBFM40.TL3:
      return canopy(50 + 30 * f, 20 + 8 * n, 1 + 1.5 * n, 0.1 + 0.1 * f)
    default:
      return NO_CANOPY
  }
}

/** The demo's canopy grids (canopy_cover, canopy_height, canopy_base_height, canopy_bulk_density). */
export interface CanopyGrids {
  cover: GridRaster
  height: GridRaster
  baseHeight: GridRaster
  bulkDensity: GridRaster
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
): { elevation: GridRaster; fuel: GridRaster; canopy: CanopyGrids } {
  const fuel = emptyRaster(shape)
  const canopy: CanopyGrids = {
    cover: emptyRaster(shape),
    height: emptyRaster(shape),
    baseHeight: emptyRaster(shape),
    bulkDensity: emptyRaster(shape),
  }
  const elevation = fillRaster(emptyRaster(shape), (lon, lat, k) => {
    if (Number.isNaN(sampleNearest(demoElevation, lon, lat))) return Number.NaN
    const z = elevationAt(lon, lat, seed)
    const people = sampleNearest(population, lon, lat)
    const [kind, fraction] = coverAt(lon, lat, z, Number.isNaN(people) ? 0 : people, seed)
    const code = fbfm40For(kind, fraction, z, fbm(lon * 30, lat * 30, seed + 41, 2))
    fuel.data[k] = code
    if (kind === 'tree') {
      const c = canopyFor(code, fraction, fbm(lon * 20, lat * 20, seed + 43, 2))
      canopy.cover.data[k] = c.coverPercent
      canopy.height.data[k] = c.heightM
      canopy.baseHeight.data[k] = c.baseHeightM
      canopy.bulkDensity.data[k] = c.bulkDensityKgPerM3
    } else {
      canopy.cover.data[k] = 0
      canopy.height.data[k] = 0
      canopy.baseHeight.data[k] = 0
      canopy.bulkDensity.data[k] = 0
    }
    return z
  })
  return { elevation, fuel, canopy }
}
