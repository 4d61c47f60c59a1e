import type { Geometry } from 'geojson'
import { operationsConfig } from '../../shared/config'
import { groundDistanceMiles, toShape, type BBox, type Shape } from '../alerts/groundDistance'
import type { Store, StoredFeature } from '../store/Store'
import { decodeParts, toParts } from '../store/geometryCodec'

/** One feature inside the burned area, with what the map needs to link to it. */
export interface InsideFeature {
  readonly dataset: string
  /** The store's feature id (OGC API item id, records `id`). */
  readonly id: number
  /** The dataset's key value (line or circuit identifier, facility name), else the id. */
  readonly label: string
  /** [west, south, east, north] of the feature: the map zooms to it. */
  readonly bbox: BBox
  /** The feature as GeoJSON through OGC API – Features. */
  readonly href: string
  readonly customers?: number
  readonly type?: string
}

export interface WhatLiesInside {
  /** Overhead transmission and distribution lines crossing the burned area. */
  readonly lines: InsideFeature[]
  /** Circuits (the Planning Mode dataset) crossing it, with their customers. */
  readonly circuits: InsideFeature[]
  readonly buildings: { readonly count: number; readonly sample: InsideFeature[] }
  /** Customers served by the circuits crossing the burned area (sum of their `customers`). */
  readonly customers: number
  readonly criticalFacilities: InsideFeature[]
  /** Lists are cut at LIST_LIMIT; these are the full counts. */
  readonly counts: { lines: number; circuits: number; criticalFacilities: number }
}

/** The datasets the answer lists (ids of config/layers.yaml). */
export const INSIDE_DATASETS = {
  lines: ['transmission_lines', 'distribution_lines'],
  buildings: 'buildings',
  criticalFacilities: 'critical_infrastructure',
} as const

/** Most features listed per kind (the counts are complete). */
export const LIST_LIMIT = 200
const BUILDING_SAMPLE = 20
/** Most candidates read per dataset from the bbox of the burned area. */
const CANDIDATE_LIMIT = 50_000

/** The burned area as a shape the distance test takes (a Polygon or MultiPolygon in lon/lat). */
export function burnedShape(perimeter: Geometry): Shape {
  return toShape(toParts(perimeter, 'polygon'), 'polygon')
}

function describe(dataset: string, def: ReturnType<Store['dataset']>, f: StoredFeature, shape: Shape) {
  const key = def?.key ? f.properties[def.key] : null
  return {
    dataset,
    id: f.id,
    label: key === null || key === undefined || key === '' ? `#${f.id}` : String(key),
    bbox: shape.bbox.map((v) => Math.round(v * 1e6) / 1e6) as unknown as BBox,
    href: `/ogc/collections/${dataset}/items/${f.id}`,
  }
}

/** The features of `dataset` that touch the burned area (in store id order). */
async function touching(
  store: Store,
  dataset: string,
  area: Shape,
): Promise<{ feature: StoredFeature; shape: Shape }[]> {
  const def = store.dataset(dataset)
  if (!def) return []
  const { features } = await store.featuresInBox(dataset, area.bbox, 0, CANDIDATE_LIMIT)
  const hits: { feature: StoredFeature; shape: Shape }[] = []
  for (const feature of features) {
    const parts = decodeParts(feature.geom)
    if (parts.length === 0) continue
    const shape = toShape(parts, def.geometry)
    if (groundDistanceMiles(area, shape, 0) === 0) hits.push({ feature, shape })
  }
  return hits.sort((a, b) => a.feature.id - b.feature.id)
}

const numberOf = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/**
 * What lies inside a burned area: lines, circuits (and their customers), buildings and critical
 * facilities whose geometry touches, crosses or lies inside it.
 */
export async function whatLiesInside(store: Store, perimeter: Geometry): Promise<WhatLiesInside> {
  const area = burnedShape(perimeter)
  const planning = operationsConfig.planning ?? null

  const lines: InsideFeature[] = []
  for (const dataset of INSIDE_DATASETS.lines) {
    const def = store.dataset(dataset)
    for (const { feature, shape } of await touching(store, dataset, area))
      lines.push(describe(dataset, def, feature, shape))
  }

  const circuits: InsideFeature[] = []
  if (planning) {
    const def = store.dataset(planning.dataset)
    for (const { feature, shape } of await touching(store, planning.dataset, area)) {
      const customers = numberOf(feature.properties[planning.customers])
      circuits.push({ ...describe(planning.dataset, def, feature, shape), customers })
    }
  }

  const buildingsDef = store.dataset(INSIDE_DATASETS.buildings)
  const buildings = await touching(store, INSIDE_DATASETS.buildings, area)

  const facilitiesDef = store.dataset(INSIDE_DATASETS.criticalFacilities)
  const facilities = (await touching(store, INSIDE_DATASETS.criticalFacilities, area)).map(
    ({ feature, shape }) => {
      const type = feature.properties['type']
      return {
        ...describe(INSIDE_DATASETS.criticalFacilities, facilitiesDef, feature, shape),
        ...(typeof type === 'string' ? { type } : {}),
      }
    },
  )

  return {
    lines: lines.slice(0, LIST_LIMIT),
    circuits: circuits.slice(0, LIST_LIMIT),
    buildings: {
      count: buildings.length,
      sample: buildings
        .slice(0, BUILDING_SAMPLE)
        .map(({ feature, shape }) => describe(INSIDE_DATASETS.buildings, buildingsDef, feature, shape)),
    },
    customers: circuits.reduce((sum, c) => sum + (c.customers ?? 0), 0),
    criticalFacilities: facilities.slice(0, LIST_LIMIT),
    counts: { lines: lines.length, circuits: circuits.length, criticalFacilities: facilities.length },
  }
}
