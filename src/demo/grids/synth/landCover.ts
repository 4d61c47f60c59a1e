import type { LegendClass } from '../../../shared/config'
import { emptyRaster, fillRaster, type GridRaster } from '../../../server/grids/gridRaster'
import { fbm } from './noise'
import { distanceToLine, riverDistance } from './terrain'

export type CoverKind = 'water' | 'developed' | 'urban' | 'barren' | 'crops' | 'tree' | 'shrub' | 'herbaceous'

const KINDS: CoverKind[] = ['water', 'developed', 'urban', 'barren', 'crops', 'tree', 'shrub', 'herbaceous']

/** How readily each cover carries fire, 0..1 (grass fastest, water never). */
export const FUEL: Record<CoverKind, number> = {
  water: 0,
  developed: 0.25,
  urban: 0.05,
  barren: 0.05,
  crops: 0.3,
  tree: 0.8,
  shrub: 0.9,
  herbaceous: 1,
}

interface CoverClass {
  kind: CoverKind
  value: number
  /** Lower bound of the cover percentage for tree/shrub/herbaceous classes. */
  coverFrom: number
}

/**
 * Reads the vegetation legend's classes: the kind from the label's first word, the cover step from
 * `NN-MM%`. Throws if a kind the generator draws has no class, so a renamed legend fails loudly.
 */
export function coverClasses(classes: readonly LegendClass[]): CoverClass[] {
  const parsed = classes.flatMap((c): CoverClass[] => {
    const kind = KINDS.find((k) => c.label.toLowerCase().startsWith(k === 'crops' ? 'crop' : k))
    if (!kind) return []
    const pct = /(\d+)\s*-\s*\d+\s*%/.exec(c.label)
    return [{ kind, value: c.value, coverFrom: pct ? Number(pct[1]) : 0 }]
  })
  for (const k of KINDS)
    if (!parsed.some((c) => c.kind === k)) throw new Error(`vegetation legend has no ${k} class`)
  return parsed
}

/** Reservoirs: centre, half-axes in degrees. */
const LAKES: [number, number, number, number][] = [
  [-107.18, 33.25, 0.025, 0.12], // Elephant Butte
  [-107.3, 32.95, 0.015, 0.05], // Caballo
  [-107.6, 36.85, 0.03, 0.1], // Navajo
  [-106.43, 36.24, 0.04, 0.02], // Abiquiu
  [-106.68, 36.68, 0.04, 0.03], // Heron / El Vado
  [-104.19, 35.4, 0.06, 0.015], // Conchas
  [-103.45, 35.35, 0.06, 0.015], // Ute
  [-104.38, 32.55, 0.02, 0.03], // Brantley
]

const WHITE_SANDS: [number, number, number, number] = [-106.3, 32.85, 0.18, 0.28]

const inEllipse = (lon: number, lat: number, [cx, cy, ax, ay]: [number, number, number, number]): boolean =>
  ((lon - cx) / ax) ** 2 + ((lat - cy) / ay) ** 2 <= 1

/** The cover kind and cover fraction (0..1) of one cell. */
export function coverAt(
  lon: number,
  lat: number,
  elevation: number,
  people: number,
  seed: number,
): [CoverKind, number] {
  const n = fbm(lon * 12, lat * 12, seed + 21, 4)
  const n2 = fbm(lon * 25, lat * 25, seed + 29, 3)
  if (LAKES.some((l) => inEllipse(lon, lat, l))) return ['water', 0]
  if (people > 1500) return ['urban', 0]
  if (people > 250) return ['developed', 0]
  if (inEllipse(lon, lat, WHITE_SANDS) || elevation > 3650) return ['barren', 0]
  const treeLine = 2150 + (n - 0.5) * 500
  if (elevation > treeLine)
    return ['tree', Math.min(0.99, 0.15 + (elevation - treeLine) / 1100 + (n2 - 0.5) * 0.4)]
  const valley = riverDistance(lon, lat) < 0.05 && elevation < 1800
  const sanJuan =
    distanceToLine(lon, lat, [
      [-108.25, 36.55],
      [-107.9, 36.7],
    ]) < 0.12
  if ((valley || sanJuan) && n2 > 0.4) return ['crops', 0]
  if (lon > -103.9 && n > 0.55 && n2 > 0.45) return ['crops', 0]
  if (elevation < 1450 && n2 > 0.78) return ['barren', 0]
  const plains = lon > -105.4 - (n - 0.5) * 0.8 || (lat > 35.6 && lon > -106 && elevation < 2100)
  if (plains) return ['herbaceous', Math.min(0.95, 0.2 + n2 * 0.6)]
  if (elevation > 1900 && n > 0.5) return ['tree', Math.min(0.6, 0.1 + (n2 - 0.3) * 0.5)]
  return ['shrub', Math.min(0.95, 0.1 + n2 * 0.55)]
}

/** The class value for a kind and cover fraction: the step with the largest lower bound not above it. */
function classValue(ofKind: CoverClass[], cover: number): number {
  let best = ofKind[0]!
  for (const c of ofKind) if (c.coverFrom <= cover * 100) best = c
  return best.value
}

/** Vegetation class raster (legend values) and the fuel raster (0..1) derived from it. */
export function landCoverGrids(
  elevation: GridRaster,
  people: GridRaster,
  classes: readonly LegendClass[],
  seed: number,
): { vegetation: GridRaster; fuel: GridRaster } {
  const all = coverClasses(classes)
  const byKind = new Map(
    KINDS.map((k) => [k, all.filter((c) => c.kind === k).sort((a, b) => a.coverFrom - b.coverFrom)]),
  )
  const fuel = emptyRaster(elevation)
  const vegetation = fillRaster(emptyRaster(elevation), (lon, lat, k) => {
    const z = elevation.data[k]!
    if (Number.isNaN(z)) return Number.NaN
    const [kind, fraction] = coverAt(lon, lat, z, people.data[k]!, seed)
    fuel.data[k] =
      FUEL[kind] * (kind === 'tree' || kind === 'shrub' || kind === 'herbaceous' ? 0.6 + 0.4 * fraction : 1)
    return classValue(byKind.get(kind)!, fraction)
  })
  return { vegetation, fuel }
}
