// "What if a fire starts here?" (issue #31 item 4): the shapes of POST /api/fire/simulate and
// GET /api/fire/simulate, shared by the server (src/server/fireSim) and the map tool
// (src/features/fireSim).
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson'

/** Hours a what-if fire may be simulated for. */
export const WHAT_IF_MAX_HOURS = 12
export const WHAT_IF_DEFAULT_HOURS = 6

export interface FireWhatIfRequest {
  readonly lon: number
  readonly lat: number
  /** Forecast hour of the window the fire starts in (default: the current hour). */
  readonly hour?: number
  /** Hours to simulate, 1–12 (default 6). */
  readonly hours?: number
}

/** A feature inside the burned area and what the map needs to link to it. */
export interface FireWhatIfFeature {
  readonly dataset: string
  /** Store feature id (OGC API item id, attribute-table `id`). */
  readonly id: number
  /** Key value (line or circuit identifier, facility name), or `#id`. */
  readonly label: string
  /** [west, south, east, north] */
  readonly bbox: readonly [number, number, number, number]
  /** The feature as GeoJSON (OGC API – Features item). */
  readonly href: string
  readonly customers?: number
  readonly type?: string
}

export interface FireWhatIfInside {
  readonly lines: readonly FireWhatIfFeature[]
  readonly circuits: readonly FireWhatIfFeature[]
  readonly buildings: { readonly count: number; readonly sample: readonly FireWhatIfFeature[] }
  readonly customers: number
  readonly criticalFacilities: readonly FireWhatIfFeature[]
  readonly counts: { readonly lines: number; readonly circuits: number; readonly criticalFacilities: number }
}

export interface IsochroneProperties {
  /** Hours after ignition (1, 2, …): the area burned by then. */
  readonly hour: number
  readonly [key: string]: unknown
}

export interface FireWhatIfResult {
  /** [lon, lat] of the ignition as asked. */
  readonly point: readonly [number, number]
  readonly hour: number
  readonly hours: number
  /** ISO time of ignition (the forecast hour's valid time). */
  readonly startTime: string
  readonly isochrones: FeatureCollection<Polygon | MultiPolygon, IsochroneProperties>
  /** The final perimeter (the last hour's burned area). */
  readonly perimeter: Polygon | MultiPolygon | null
  readonly burnedAcres: number
  /** What inputs produced it (fuels, terrain, wind run, cell size). */
  readonly provenance: string
  readonly inside: FireWhatIfInside
  /** Server-side milliseconds: the simulation (in its worker) and the look-up of what lies inside. */
  readonly timings: { readonly simulateMs: number; readonly insideMs: number; readonly totalMs: number }
}

/** GET /api/fire/simulate: what the tool may ask for. */
export interface FireWhatIfInfo {
  readonly hours: number
  readonly currentHour: number
  readonly validTimes: readonly string[]
  readonly maxHours: number
  readonly defaultHours: number
  /** [west, south, east, north] of the landscape, or null when none is configured. */
  readonly bbox: readonly [number, number, number, number] | null
  readonly provenance: string | null
}
