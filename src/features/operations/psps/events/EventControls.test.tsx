import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CircuitsTable, PhaseButtons, READ_ONLY_NOTE } from './EventControls'
import { EventsList } from './EventsList'
import type { EventCircuit, PspsEventActions, PspsEventDetail } from './eventsApi'

// Issue #33: the record buttons follow the member's psps_events permissions (config/app.yaml rbac):
// an ordinary member (read) sees the event without them; an operator (create, update) gets them.

const circuit = (name: string): EventCircuit => ({
  circuit: name,
  customers: { residential: 100, commercial: 10, industrial: 1, other: 0, total: 111 },
  medicalBaseline: 3,
  criticalFacilities: {},
  state: 'energized',
  periods: [],
})

const event: PspsEventDetail = {
  id: 7,
  name: 'Wind event',
  phase: 'warning',
  nextPhases: ['de-energized', 'closed'],
  createdAt: '2026-11-27T08:00:00Z',
  createdBy: 'member-1',
  createdByEmail: 'op@example.com',
  updatedAt: '2026-11-27T08:00:00Z',
  phases: [],
  circuits: [circuit('CIRC-1'), circuit('CIRC-2')],
}

const reader: PspsEventActions = { create: false, update: false }
const operator: PspsEventActions = { create: true, update: true }

/** The event page's record controls as EventView renders them for a member with `actions`. */
const page = (actions: PspsEventActions) =>
  renderToStaticMarkup(
    <>
      <PhaseButtons
        phase={event.phase}
        nextPhases={event.nextPhases}
        canChange={actions.update}
        busy={false}
        onMove={() => undefined}
      />
      <CircuitsTable
        circuits={event.circuits}
        states={new Map()}
        selected={null}
        canRecord={actions.update}
        onSelect={() => undefined}
      />
    </>,
  )
const list = (actions: PspsEventActions) =>
  renderToStaticMarkup(<EventsList onOpen={() => undefined} actions={actions} />)

describe('PSPS event page and list by permission', () => {
  it('shows a read-only member the event without phase or step buttons, and says why', () => {
    const html = page(reader)
    expect(html).toContain('CIRC-1')
    expect(html).not.toContain('Move to')
    expect(html).not.toContain('Record a step on circuit')
    expect(html).toContain(READ_ONLY_NOTE)
  })

  it('gives an operator the phase buttons and a step button per circuit', () => {
    const html = page(operator)
    expect(html).toContain('Move to de-energized')
    expect(html).toContain('Move to closed')
    expect(html).toContain('Record a step on circuit CIRC-1')
    expect(html).toContain('Record a step on circuit CIRC-2')
    expect(html).not.toContain(READ_ONLY_NOTE)
  })

  it('offers "New event from forecast" only to a member who may create events', () => {
    expect(list(reader)).not.toContain('New event from forecast')
    expect(list({ create: false, update: true })).not.toContain('New event from forecast')
    expect(list(operator)).toContain('New event from forecast')
  })
})
