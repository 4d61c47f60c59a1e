import type {
  CustomerCounts,
  DeenergizationPeriod,
  PspsEventSummary,
  PspsPhase,
  PspsPhaseChange,
  StoredPspsEvent,
} from './pspsEventRecords'

/**
 * The PSPS event tables' rows as both stores read them, and their mapping to records. `J` is how a
 * JSON column arrives: text from SQLite, the parsed value from PostgreSQL's jsonb.
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

export interface CircuitRow<J> {
  event_id: number
  circuit: string
  position: number
  customers: J
  medical_baseline: number | null
  critical_facilities: J
}

export interface PeriodRow {
  event_id: number
  circuit: string
  period: number
  deenergized_at: number
  patrolled_at: number | null
  restored_at: number | null
  damage_found: boolean | null
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

const periodOf = (r: PeriodRow): DeenergizationPeriod => ({
  period: r.period,
  deenergizedAt: r.deenergized_at,
  patrolledAt: r.patrolled_at,
  restoredAt: r.restored_at,
  damageFound: r.damage_found,
  notes: r.notes,
  recordedBy: r.recorded_by,
  recordedAt: r.recorded_at,
})

/** Row → record mappers for a store whose JSON columns `json` decodes. */
export function pspsEventRowMappers<J>(json: (column: J) => unknown) {
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
    event(e: EventRow, phases: PhaseRow[], circuits: CircuitRow<J>[], periods: PeriodRow[]): StoredPspsEvent {
      const byCircuit = new Map<string, DeenergizationPeriod[]>()
      for (const p of periods) {
        const list = byCircuit.get(p.circuit) ?? []
        list.push(periodOf(p))
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
        circuits: circuits.map((c) => ({
          circuit: c.circuit,
          customers: customersOf(json(c.customers)),
          medicalBaseline: c.medical_baseline,
          criticalFacilities: facilitiesOf(json(c.critical_facilities)),
          periods: (byCircuit.get(c.circuit) ?? []).sort((a, b) => a.period - b.period),
        })),
      }
    },
  }
}
