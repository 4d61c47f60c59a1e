import type { DeliveryLogEntry } from '../store/deliveryStore'
import type {
  DeenergizationPeriod,
  PspsPhase,
  StoredPspsEvent,
  StoredPspsEventCircuit,
} from '../store/pspsEventStore'
import { PHASE_TRANSITIONS } from './phases'

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

/** A notification sent (a `sent` line of the delivery log), as the event answers it. */
export interface NotificationOut {
  at: string
  channel: string | null
  kind: string
  alertIds: string[]
}

/** The state of a circuit from its latest period. */
export type CircuitState = 'energized' | 'de-energized' | 'patrolled' | 'restored'

export function circuitState(periods: readonly DeenergizationPeriod[]): CircuitState {
  const p = periods.at(-1)
  if (!p) return 'energized'
  if (p.restoredAt !== null) return 'restored'
  return p.patrolledAt !== null ? 'patrolled' : 'de-energized'
}

/** The window of each phase: from its change to the next change (the last open until `now`, none once closed). */
export function phaseWindows(event: StoredPspsEvent, now: number): { from: number; to: number }[] {
  return event.phases.map((p, i) => {
    const next = event.phases[i + 1]
    return { from: p.at, to: next ? next.at : p.phase === 'closed' ? p.at : now + 1 }
  })
}

function periodOut(p: DeenergizationPeriod, email: (id: string) => string | null) {
  return {
    period: p.period,
    deenergizedAt: iso(p.deenergizedAt),
    patrolledAt: iso(p.patrolledAt),
    restoredAt: iso(p.restoredAt),
    damageFound: p.damageFound,
    notes: p.notes,
    recordedBy: p.recordedBy,
    recordedByEmail: email(p.recordedBy),
    recordedAt: iso(p.recordedAt),
  }
}

function circuitOut(c: StoredPspsEventCircuit, email: (id: string) => string | null) {
  const latest = c.periods.at(-1)
  return {
    circuit: c.circuit,
    customers: c.customers,
    medicalBaseline: c.medicalBaseline,
    criticalFacilities: c.criticalFacilities,
    state: circuitState(c.periods),
    deenergizedAt: iso(latest?.deenergizedAt ?? null),
    patrolledAt: iso(latest?.patrolledAt ?? null),
    restoredAt: iso(latest?.restoredAt ?? null),
    periods: c.periods.map((p) => periodOut(p, email)),
  }
}

/**
 * The event as GET /api/psps/events/<id> answers it: times in ISO 8601 (UTC), each phase change
 * with who made it and the notifications sent while it lasted, the phases it may move to next,
 * every circuit with its counts, state and de-energization periods.
 */
export function eventOut(
  event: StoredPspsEvent,
  notifications: readonly (readonly DeliveryLogEntry[])[],
  email: (id: string) => string | null,
) {
  return {
    id: event.id,
    name: event.name,
    phase: event.phase,
    nextPhases: PHASE_TRANSITIONS[event.phase] as readonly PspsPhase[],
    createdAt: iso(event.createdAt),
    createdBy: event.createdBy,
    createdByEmail: email(event.createdBy),
    updatedAt: iso(event.updatedAt),
    phases: event.phases.map((p, i) => ({
      phase: p.phase,
      at: iso(p.at),
      until: iso(event.phases[i + 1]?.at ?? null),
      by: p.by,
      byEmail: email(p.by),
      notifications: (notifications[i] ?? []).map((n): NotificationOut => ({
        at: new Date(n.at).toISOString(),
        channel: n.channel,
        kind: n.kind,
        alertIds: n.alertIds,
      })),
    })),
    circuits: event.circuits.map((c) => circuitOut(c, email)),
  }
}
