import type { Geometry } from 'geojson'

/** The JSON of GET /api/mitigation (src/server/operations/mitigationRoutes.ts). */
export type MitigationFormatterName = 'sigfig3' | 'decimal1' | 'currency'
import type { Bbox, FactorScore, MitigationRow } from '../../../shared/operations/wireTypes'

export type { Bbox, FactorScore }
export type RankedCircuit = MitigationRow

export interface MitigationFactorInfo {
  id: string
  field: string
  label: string
  formatter?: MitigationFormatterName
  /** Chart colour: '#rrggbb[aa]' or a config/theme.yaml name. */
  color?: string
  defaultWeight: number
  /** The weight used for this ranking, and its share of the weights' sum. */
  weight: number
  share: number
}

export interface MitigationRanking {
  dataset: string
  key: { field: string; label: string }
  risk: { field: string; label: string; formatter?: MitigationFormatterName }
  factors: MitigationFactorInfo[]
  weights: Record<string, number>
  scoreFormatter: MitigationFormatterName
  chartTop: number | null
  version: number
  count: number
  rows: RankedCircuit[]
}

export interface CircuitGeometry {
  id: number
  key: string
  bbox: Bbox
  geometry: Geometry
}

/** Thrown for a non-2xx answer, carrying the server's message (and the parameter of a 400). */
export class MitigationApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly parameter: string | null,
  ) {
    super(message)
  }
}
