import type { CircuitHistory } from './eventReplay'
import type { EventNotification, PspsEventDetail, PspsPhase } from './eventsApi'

const ms = (iso: string | null): number | null => {
  if (iso === null) return null
  const t = Date.parse(iso)
  return Number.isNaN(t) ? null : t
}

/** The event's circuits as replay histories (periods in time order, unreadable times left out). */
export function historiesOf(event: Pick<PspsEventDetail, 'circuits'>): CircuitHistory[] {
  return event.circuits.map((c) => ({
    circuit: c.circuit,
    periods: c.periods
      .flatMap((p) => {
        const off = ms(p.deenergizedAt)
        return off === null ? [] : [{ off, patrolled: ms(p.patrolledAt), on: ms(p.restoredAt) }]
      })
      .sort((a, b) => a.off - b.off),
  }))
}

export type TimelineEntry =
  | {
      kind: 'phase'
      at: number
      phase: PspsPhase
      by: string | null
      /** Alert deliveries sent while this phase lasted (the server's delivery log). */
      notifications: EventNotification[]
    }
  | { kind: 'deenergized' | 'patrolled' | 'restored'; at: number; circuit: string }

/** Phase changes (with their notifications) and every circuit step, oldest first. */
export function eventTimeline(event: PspsEventDetail): TimelineEntry[] {
  const entries: TimelineEntry[] = event.phases.map((p) => ({
    kind: 'phase',
    at: ms(p.at) ?? 0,
    phase: p.phase,
    by: p.byEmail ?? p.by,
    notifications: p.notifications,
  }))
  for (const c of historiesOf(event))
    for (const p of c.periods) {
      entries.push({ kind: 'deenergized', at: p.off, circuit: c.circuit })
      if (p.patrolled !== null) entries.push({ kind: 'patrolled', at: p.patrolled, circuit: c.circuit })
      if (p.on !== null) entries.push({ kind: 'restored', at: p.on, circuit: c.circuit })
    }
  // Stable: at one moment a phase change comes before the steps recorded with it.
  return entries.sort((a, b) => a.at - b.at)
}
