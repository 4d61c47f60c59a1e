import { Button, HTMLTable, Tag } from '@blueprintjs/core'
import { formatDate, formatPlain } from '../../../../shared/format'
import { resolveColor } from '../../../../shared/config'
import { STATE_COLOURS } from './circuitStates'
import type { CircuitState } from './eventReplay'
import type { EventCircuit, PspsPhase } from './eventsApi'

// The event page's record controls, kept free of the map (Leaflet) so they render anywhere.

/** Said where the buttons would be, to a member who may only read the event. */
export const READ_ONLY_NOTE =
  'You can view this event; recording its phases and circuit steps needs the psps_events update permission.'

export const STATE_TEXT: Readonly<Record<CircuitState, string>> = {
  on: 'energized',
  off: 'de-energized',
  patrolled: 'patrolled',
  restored: 'restored',
}

export interface PhaseButtonsProps {
  readonly phase: PspsPhase
  readonly nextPhases: readonly PspsPhase[]
  /** `psps_events.update`: without it, the note instead of the buttons. */
  readonly canChange: boolean
  readonly busy: boolean
  readonly onMove: (phase: PspsPhase) => void
}

/** The phases the event may move to, as buttons (a member who may only read is told why there are none). */
export function PhaseButtons({ phase, nextPhases, canChange, busy, onMove }: PhaseButtonsProps) {
  return (
    <div className="el-psps-phase-buttons" role="group" aria-label="Change the phase">
      {nextPhases.length === 0 ? (
        <span className="bp6-text-muted">The event is {phase}: its record is final.</span>
      ) : !canChange ? (
        <span className="bp6-text-muted el-psps-read-only">{READ_ONLY_NOTE}</span>
      ) : (
        nextPhases.map((p) => (
          <Button
            key={p}
            size="small"
            icon="flow-linear"
            text={`Move to ${p}`}
            disabled={busy}
            onClick={() => onMove(p)}
          />
        ))
      )}
    </div>
  )
}

export interface CircuitsTableProps {
  readonly circuits: readonly EventCircuit[]
  readonly states: ReadonlyMap<string, CircuitState>
  readonly selected: string | null
  /** False: the circuit names are plain text (no step to record). */
  readonly canRecord: boolean
  readonly onSelect: (circuit: string) => void
}

export function CircuitsTable({ circuits, states, selected, canRecord, onSelect }: CircuitsTableProps) {
  return (
    <HTMLTable compact striped className="el-ops-table el-psps-circuits" aria-label="Circuits of the event">
      <thead>
        <tr>
          <th scope="col">Circuit</th>
          <th scope="col">State</th>
          <th scope="col" className="el-ops-num">
            Customers
          </th>
          <th scope="col" className="el-ops-num">
            Medical baseline
          </th>
          <th scope="col">De-energized</th>
          <th scope="col">Patrolled</th>
          <th scope="col">Restored</th>
        </tr>
      </thead>
      <tbody>
        {circuits.map((c) => {
          const state = states.get(c.circuit) ?? 'on'
          const latest = c.periods.at(-1)
          return (
            <tr
              key={c.circuit}
              data-circuit={c.circuit}
              data-state={state}
              className={c.circuit === selected ? 'el-ops-selected' : undefined}
            >
              <td>
                {canRecord ? (
                  <Button
                    size="small"
                    variant="minimal"
                    text={c.circuit}
                    aria-pressed={c.circuit === selected}
                    aria-label={`Record a step on circuit ${c.circuit}`}
                    onClick={() => onSelect(c.circuit)}
                  />
                ) : (
                  c.circuit
                )}
              </td>
              <td>
                <Tag
                  minimal
                  className="el-psps-state"
                  style={{ borderLeft: `4px solid ${resolveColor(STATE_COLOURS[state])}` }}
                >
                  {STATE_TEXT[state]}
                </Tag>
                {c.periods.length > 1 ? <span className="bp6-text-muted"> ×{c.periods.length}</span> : null}
              </td>
              <td className="el-ops-num">{formatPlain(c.customers.total)}</td>
              <td className="el-ops-num">{formatPlain(c.medicalBaseline)}</td>
              <td>{latest ? formatDate(latest.deenergizedAt) : ''}</td>
              <td>{latest?.patrolledAt ? formatDate(latest.patrolledAt) : ''}</td>
              <td>{latest?.restoredAt ? formatDate(latest.restoredAt) : ''}</td>
            </tr>
          )
        })}
      </tbody>
    </HTMLTable>
  )
}
