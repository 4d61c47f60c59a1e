import type { MultiPolygon, FeatureCollection } from 'geojson'
import type { FireLandscapeData } from '../fire/landscape'

/** Messages to the what-if worker (fireSimWorker.ts). */
export type FireSimRequest =
  | { type: 'landscape'; key: string; data: FireLandscapeData }
  | {
      type: 'simulate'
      id: number
      key: string
      lon: number
      lat: number
      hour: number
      hours: number
      cellSizeM: number
    }

/** What the worker sends back for one simulation (no arrival raster: the answer needs only polygons). */
export interface FireSimOutcome {
  isochrones: FeatureCollection<MultiPolygon>
  perimeter: MultiPolygon
  burnedAcres: number
  burnedAcresByHour: number[]
  ignited: boolean
  truncated: boolean
  cellSizeM: number
  provenance: { computedAt: string; fuels: string; terrain: string; wind: string; summary: string }
  /** Milliseconds the simulation took in the worker. */
  simulateMs: number
}

export type FireSimAnswer =
  | { id: number; ok: true; outcome: FireSimOutcome }
  | { id: number; ok: false; error: string; landscapeError: boolean }
