import type { GeometryKind } from '../store/catalog'
import type { Properties } from './conditions'
import type { BBox, Shape } from './groundDistance'

/** An asset within the rule's distance of the hazard. */
export interface AlertAsset {
  dataset: string
  /** Stored feature id (the records API `id`). */
  id: number
  label: string
  /** Ground distance to the hazard in miles (0: touching, crossing or inside). */
  distanceMiles: number
}

/** One hazard feature exposing one or more assets under one rule. */
export interface Alert {
  /** `<rule id>:<hazard key>` — the dataset key value when it is unique, else the feature id. */
  id: string
  ruleId: string
  ruleTitle: string
  severity: string
  hazard: { dataset: string; id: number; label: string; time: string | null }
  /** Nearest first. */
  assets: AlertAsset[]
  nearestMiles: number
  /** The hazard's time, or the evaluation time when the rule's hazard has no time field. */
  time: string
  /** [minLon, minLat, maxLon, maxLat] of the hazard and its assets. */
  bbox: BBox
}

/** A stored feature ready for the rules: attributes, stable key and lon/lat geometry. */
export interface PreparedFeature {
  id: number
  key: string
  properties: Properties
  shape: Shape
}

/** Every feature of one dataset version, decoded once and shared by the rules that read it. */
export interface PreparedDataset {
  id: string
  version: number
  kind: GeometryKind
  features: PreparedFeature[]
  byId: Map<number, PreparedFeature>
}
