// The JSON the operations endpoints answer with (src/server/operations), read by the operations
// views (src/features/operations): one definition for both sides.

/** [minLon, minLat, maxLon, maxLat] */
export type Bbox = [number, number, number, number]

// ---------------------------------------------------------------- GET /api/psps/event

export type CellValue = string | number | null

/** A column of the roll-up as the browser renders it (config/operations.yaml psps.columns). */
export interface PspsColumn {
  field: string
  label: string
  formatter: string | null
  total: 'sum' | null
}

/** One circuit recommended for de-energization. */
export interface PspsRow {
  /** Store feature id (for /api/psps/event/:id/geometry). */
  id: number
  key: string
  /** Null without geometry. */
  bbox: Bbox | null
  gust: number | null
  threshold: number | null
  /** Forecast gust above the circuit's threshold (false when either is missing). */
  gustExceedsThreshold: boolean
  /** The configured columns' values, by field. */
  values: Record<string, CellValue>
}

export interface PspsEvent {
  window: { start: string | null; end: string | null }
  columns: PspsColumn[]
  rows: PspsRow[]
  /** Sum of every `total: sum` column over `rows` (non-numeric cells count as 0). */
  totals: Record<string, number>
  count: number
}

// ---------------------------------------------------------------- GET /api/planning

/** A circuit's forecast gust against its (stored or what-if) threshold at the hour. */
export interface PlanningRow {
  id: number
  key: string
  /** Maximum forecast gust along the circuit for the hour (mph, 2 decimals). */
  gust: number
  /** Threshold compared with: the what-if override when given, else the stored one. */
  threshold: number
  storedThreshold: number | null
  overridden: boolean
  /** gust − threshold (mph, 2 decimals); negative under the threshold. */
  exceedance: number
  /** The gust exceeds the threshold. */
  exceeds: boolean
  customers: number | null
  bbox: Bbox | null
}

// ---------------------------------------------------------------- GET /api/mitigation

export interface FactorScore {
  value: number | null
  normalised: number
  /** This factor's share of the score: risk_n × w × factor_n / Σw. The contributions add up to the score. */
  contribution: number
}

export interface MitigationRow {
  id: number
  key: string
  bbox: Bbox
  rank: number
  score: number
  risk: { value: number | null; normalised: number }
  factors: Record<string, FactorScore>
  /** 'risk' and/or factor ids whose value was missing (counted as 0). */
  missing: readonly string[]
}
