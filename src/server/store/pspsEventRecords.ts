// The PSPS event records both stores and their row mappers share, apart from the stores, so
// pspsEventRows and pspsEventStore depend on this file and not on each other.

/** The phases of a PSPS event, in their usual order (src/server/psps-events/phases.ts has the rules). */
export const PSPS_PHASES = ['watch', 'warning', 'de-energized', 'patrolling', 'restored', 'closed'] as const
export type PspsPhase = (typeof PSPS_PHASES)[number]

/** Customers of a circuit by class; null = the class is not in the data (never a guess). */
export interface CustomerCounts {
  residential: number | null
  commercial: number | null
  industrial: number | null
  other: number | null
  total: number | null
}

/** One circuit of an event with the counts it had when the event was created. */
export interface PspsEventCircuitInput {
  circuit: string
  customers: CustomerCounts
  medicalBaseline: number | null
  /** Critical facilities by type (type → count). */
  criticalFacilities: Record<string, number>
}

/** One de-energization of a circuit (times in ms). */
export interface DeenergizationPeriod {
  /** 1, 2, … in the order the circuit was switched off. */
  period: number
  deenergizedAt: number
  patrolledAt: number | null
  restoredAt: number | null
  damageFound: boolean | null
  notes: string | null
  recordedBy: string
  recordedAt: number
}

export interface PspsPhaseChange {
  phase: PspsPhase
  at: number
  by: string
}

export interface StoredPspsEventCircuit extends PspsEventCircuitInput {
  periods: DeenergizationPeriod[]
}

export interface PspsEventSummary {
  id: number
  name: string
  phase: PspsPhase
  createdAt: number
  createdBy: string
  updatedAt: number
  circuitCount: number
}

export interface StoredPspsEvent extends Omit<PspsEventSummary, 'circuitCount'> {
  phases: PspsPhaseChange[]
  circuits: StoredPspsEventCircuit[]
}

/** Which recording of a period a change replaces. */
