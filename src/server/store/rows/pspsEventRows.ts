import type {
  CustomerCounts,
  DeenergizationPeriod,
  PspsEventCircuitInput,
  PspsEventSummary,
  PspsPhase,
  PspsPhaseChange,
  StoredPspsEvent,
} from '../pspsEventRecords'
import type { ColumnCodec } from './codec'

/**
 * The PSPS event tables' rows as both stores read them, their mapping to records and back to
 * statement parameters. JSON and boolean columns (`unknown` here) go through the dialect's codec.
 */
export interface EventRow {
  id: number
  name: string
  phase: string
  created_at: number
  created_by: string
  updated_at: number
}

export interface PhaseRow {
  event_id: number
  seq: number
  phase: string
  at: number
  member_id: string
}

export interface CircuitRow {
  event_id: number
  circuit: string
  position: number
  customers: unknown
  medical_baseline: number | null
  critical_facilities: unknown
}

export interface PeriodRow {
  event_id: number
  circuit: string
  period: number
  deenergized_at: number
  patrolled_at: number | null
  restored_at: number | null
  damage_found: unknown
  notes: string | null
  recorded_by: string
  recorded_at: number
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

function customersOf(v: unknown): CustomerCounts {
  const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {}
  return {
    residential: count(o.residential),
    commercial: count(o.commercial),
    industrial: count(o.industrial),
    other: count(o.other),
    total: count(o.total),
  }
}

function facilitiesOf(v: unknown): Record<string, number> {
  const out: Record<string, number> = {}
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out
  for (const [k, n] of Object.entries(v)) if (typeof n === 'number') out[k] = n
  return out
}

const periodOf = (c: ColumnCodec, r: PeriodRow): DeenergizationPeriod => ({
  period: r.period,
  deenergizedAt: r.deenergized_at,
  patrolledAt: r.patrolled_at,
  restoredAt: r.restored_at,
  damageFound: r.damage_found === null ? null : c.bool(r.damage_found),
  notes: r.notes,
  recordedBy: r.recorded_by,
  recordedAt: r.recorded_at,
})

/** Row → record mappers for a store whose JSON and boolean columns the codec `c` decodes. */
export function pspsEventRowMappers(c: ColumnCodec) {
  const json = (column: unknown): unknown => c.jsonOrNull(column)
  return {
    summary: (r: EventRow & { circuit_count: number }): PspsEventSummary => ({
      id: r.id,
      name: r.name,
      phase: r.phase as PspsPhase,
      createdAt: r.created_at,
      createdBy: r.created_by,
      updatedAt: r.updated_at,
      circuitCount: Number(r.circuit_count),
    }),
    event(e: EventRow, phases: PhaseRow[], circuits: CircuitRow[], periods: PeriodRow[]): StoredPspsEvent {
      const byCircuit = new Map<string, DeenergizationPeriod[]>()
      for (const p of periods) {
        const list = byCircuit.get(p.circuit) ?? []
        list.push(periodOf(c, p))
        byCircuit.set(p.circuit, list)
      }
      return {
        id: e.id,
        name: e.name,
        phase: e.phase as PspsPhase,
        createdAt: e.created_at,
        createdBy: e.created_by,
        updatedAt: e.updated_at,
        phases: phases.map((p): PspsPhaseChange => ({
          phase: p.phase as PspsPhase,
          at: p.at,
          by: p.member_id,
        })),
        circuits: circuits.map((r) => ({
          circuit: r.circuit,
          customers: customersOf(json(r.customers)),
          medicalBaseline: r.medical_baseline,
          criticalFacilities: facilitiesOf(json(r.critical_facilities)),
          periods: (byCircuit.get(r.circuit) ?? []).sort((a, b) => a.period - b.period),
        })),
      }
    },
  }
}

export const CIRCUIT_COLUMNS = [
  'event_id',
  'circuit',
  'position',
  'customers',
  'medical_baseline',
  'critical_facilities',
] as const

export const circuitToParams = (
  c: ColumnCodec,
  eventId: number,
  circuit: PspsEventCircuitInput,
  position: number,
): unknown[] => [
  eventId,
  circuit.circuit,
  position,
  c.jsonParam(circuit.customers),
  circuit.medicalBaseline,
  c.jsonParam(circuit.criticalFacilities),
]

/** A period's values in the order of `deenergized_at, patrolled_at, restored_at, damage_found, notes, recorded_by, recorded_at`. */
export const periodValues = (c: ColumnCodec, p: DeenergizationPeriod): unknown[] => [
  p.deenergizedAt,
  p.patrolledAt,
  p.restoredAt,
  p.damageFound === null ? null : c.boolParam(p.damageFound),
  p.notes,
  p.recordedBy,
  p.recordedAt,
]
