import { describe, expect, it } from 'vitest'
import { eventTimeline, historiesOf } from './eventTimeline'
import type { CircuitPeriod, EventCircuit, PhaseChange, PspsEventDetail } from './eventsApi'

const circuit = (name: string, periods: CircuitPeriod[]): EventCircuit => ({
  circuit: name,
  customers: { residential: null, commercial: null, industrial: null, other: 10, total: 10 },
  medicalBaseline: 1,
  criticalFacilities: {},
  state: 'energized',
  periods,
})
const period = (off: string, on: string | null = null, patrolled: string | null = null): CircuitPeriod => ({
  period: 1,
  deenergizedAt: off,
  patrolledAt: patrolled,
  restoredAt: on,
  damageFound: null,
  notes: null,
  recordedBy: 'm',
  recordedByEmail: null,
  recordedAt: off,
})
const phase = (p: PhaseChange['phase'], at: string, sent: string[] = []): PhaseChange => ({
  phase: p,
  at,
  until: null,
  by: 'member-1',
  byEmail: 'a@example.com',
  notifications: sent.map((t) => ({ at: t, channel: 'email', kind: 'alert', alertIds: [] })),
})

const event: PspsEventDetail = {
  id: 1,
  name: 'Test',
  phase: 'restored',
  nextPhases: ['closed'],
  createdAt: '2026-11-20T10:00:00Z',
  createdBy: 'member-1',
  createdByEmail: 'a@example.com',
  updatedAt: '2026-11-20T18:00:00Z',
  phases: [
    phase('watch', '2026-11-20T10:00:00Z'),
    phase('de-energized', '2026-11-20T12:00:00Z', ['2026-11-20T12:05:00Z']),
    phase('restored', '2026-11-20T18:00:00Z'),
  ],
  circuits: [
    circuit('B', [period('2026-11-20T15:00:00Z'), period('2026-11-20T12:00:00Z', '2026-11-20T13:00:00Z')]),
    circuit('A', [period('2026-11-20T12:30:00Z', '2026-11-20T17:00:00Z', '2026-11-20T16:00:00Z')]),
  ],
}

describe('historiesOf', () => {
  it('orders a circuit’s de-energizations in time', () => {
    const [b] = historiesOf(event)
    expect(b!.periods.map((p) => new Date(p.off).toISOString())).toEqual([
      '2026-11-20T12:00:00.000Z',
      '2026-11-20T15:00:00.000Z',
    ])
    expect(b!.periods[1]!.on).toBeNull()
  })
})

describe('eventTimeline', () => {
  it('interleaves phase changes and circuit steps, oldest first', () => {
    const entries = eventTimeline(event).map((e) =>
      e.kind === 'phase' ? `${e.phase}` : `${e.kind} ${e.circuit}`,
    )
    expect(entries).toEqual([
      'watch',
      'de-energized',
      'deenergized B',
      'deenergized A',
      'restored B',
      'deenergized B',
      'patrolled A',
      'restored A',
      'restored',
    ])
  })

  it('keeps each phase’s notifications and who changed it', () => {
    const phases = eventTimeline(event).filter((e) => e.kind === 'phase')
    expect(phases.map((p) => (p.kind === 'phase' ? p.notifications.length : -1))).toEqual([0, 1, 0])
    expect(phases[0]!.kind === 'phase' && phases[0]!.by).toBe('a@example.com')
  })
})
