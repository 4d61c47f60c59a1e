import { Button, Callout, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { useEffect, useMemo, useState } from 'react'
import { formatDate, formatPlain } from '../../../../shared/format'
import { useFetched } from '../../shared/useFetched'
import { EventTimeline } from './EventTimeline'
import { isOff, replayRange, stateAt, type CircuitState } from './eventReplay'
import {
  changePhase,
  fetchEvent,
  recordStep,
  type CircuitStep,
  type EventCircuit,
  type PspsEventDetail,
  type PspsPhase,
} from './eventsApi'
import { eventTimeline, historiesOf } from './eventTimeline'
import { PhaseTag } from './PhaseTag'
import { ReplaySlider } from './ReplaySlider'
import { StepForm } from './StepForm'
import { STATE_COLOURS, useCircuitLines, useEventCircuitMap } from './useEventCircuitMap'
import { resolveColor } from '../../../../shared/config'

export interface EventPageProps {
  readonly id: number
  readonly onBack: () => void
  readonly onReport: (id: number) => void
}

const STATE_TEXT: Readonly<Record<CircuitState, string>> = {
  on: 'energized',
  off: 'de-energized',
  patrolled: 'patrolled',
  restored: 'restored',
}

/** One PSPS event: its circuits on the map by state, the replay, the steps to record, phases and timeline. */
export function EventPage({ id, onBack, onReport }: EventPageProps) {
  const [version, setVersion] = useState(0)
  // Read again after every change (the previous answer stays on screen meanwhile).
  const loaded = useFetched(`event:${id}:${version}`, (signal) => fetchEvent(id, signal))
  const event = loaded.data?.id === id ? loaded.data : null
  if (!event) {
    return loaded.status === 'error' ? (
      <NonIdealState
        icon="error"
        title="Could not load the PSPS event"
        description={loaded.message}
        action={<Button text="All events" icon="arrow-left" onClick={onBack} />}
      />
    ) : (
      <Spinner size={32} aria-label="Loading the PSPS event" />
    )
  }
  return (
    <EventView event={event} onBack={onBack} onReport={onReport} onChanged={() => setVersion((v) => v + 1)} />
  )
}

interface EventViewProps {
  readonly event: PspsEventDetail
  readonly onBack: () => void
  readonly onReport: (id: number) => void
  readonly onChanged: () => void
}

function EventView({ event, onBack, onReport, onChanged }: EventViewProps) {
  const [selected, setSelected] = useState<string | null>(null)
  const [replayAt, setReplayAt] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const histories = useMemo(() => historiesOf(event), [event])
  const timeline = useMemo(() => eventTimeline(event), [event])
  const now = useNow()
  const range = replayRange(Date.parse(event.createdAt), histories, now.at)
  const t = replayAt ?? now.at
  const states = new Map(histories.map((h) => [h.circuit, stateAt(h, t)] as const))
  const current = new Map(histories.map((h) => [h.circuit, stateAt(h, now.at)] as const))
  const offCount = [...states.values()].filter(isOff).length
  const lines = useCircuitLines(useMemo(() => event.circuits.map((c) => c.circuit), [event.circuits]))
  useEventCircuitMap(lines, states, { fit: true })

  const run = async (change: () => Promise<PspsEventDetail>) => {
    setBusy(true)
    setError(null)
    try {
      await change()
      onChanged()
      now.refresh()
      setReplayAt(null)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const record = (circuit: string, step: CircuitStep) => void run(() => recordStep(event.id, circuit, step))
  const movePhase = (phase: PspsPhase) => void run(() => changePhase(event.id, phase))
  const chosen = event.circuits.find((c) => c.circuit === selected) ?? null

  return (
    <section className="el-psps-event" aria-label={`PSPS event ${event.name}`} aria-busy={busy}>
      <div className="el-ops-header">
        <Button variant="minimal" icon="arrow-left" text="All events" onClick={onBack} />
        <h2 className="el-psps-event-name">{event.name}</h2>
        <PhaseTag phase={event.phase} />
        <span className="bp6-text-muted">
          created {formatDate(event.createdAt)}
          {event.createdByEmail ? ` by ${event.createdByEmail}` : ''}
        </span>
        <span className="el-ops-spacer" />
        <Button icon="print" text="Post-event report" onClick={() => onReport(event.id)} />
      </div>
      <div className="el-psps-phase-buttons" role="group" aria-label="Change the phase">
        {event.nextPhases.length === 0 ? (
          <span className="bp6-text-muted">The event is {event.phase}: its record is final.</span>
        ) : (
          event.nextPhases.map((p) => (
            <Button
              key={p}
              size="small"
              icon="flow-linear"
              text={`Move to ${p}`}
              disabled={busy}
              onClick={() => movePhase(p)}
            />
          ))
        )}
      </div>
      {error !== null ? (
        <Callout intent="danger" title="The change was refused" role="alert" className="el-psps-error">
          {error}
        </Callout>
      ) : null}
      <ReplaySlider range={range} at={replayAt} offCount={offCount} onChange={setReplayAt} />
      <StateLegend />
      <div className="el-psps-event-body">
        <CircuitsTable
          circuits={event.circuits}
          states={states}
          selected={selected}
          onSelect={(c) => setSelected((s) => (s === c ? null : c))}
        />
        {chosen && event.phase !== 'closed' ? (
          <StepForm
            key={`${chosen.circuit}:${chosen.periods.length}:${chosen.state}`}
            circuit={chosen}
            state={current.get(chosen.circuit) ?? 'on'}
            busy={busy}
            onRecord={(step) => record(chosen.circuit, step)}
          />
        ) : null}
      </div>
      <EventTimeline entries={timeline} />
    </section>
  )
}

/** The current time, read again every half minute and on `refresh()` (after a change is recorded). */
function useNow(): { at: number; refresh: () => void } {
  const [at, setAt] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setAt(Date.now()), 30_000)
    return () => clearInterval(timer)
  }, [])
  return { at, refresh: () => setAt(Date.now()) }
}

function StateLegend() {
  return (
    <div className="el-psps-legend" aria-label="Circuit colours">
      {(Object.keys(STATE_COLOURS) as CircuitState[]).map((s) => (
        <span key={s}>
          <span className="el-psps-swatch" style={{ background: resolveColor(STATE_COLOURS[s]) }} />
          {STATE_TEXT[s]}
        </span>
      ))}
    </div>
  )
}

interface CircuitsTableProps {
  readonly circuits: readonly EventCircuit[]
  readonly states: ReadonlyMap<string, CircuitState>
  readonly selected: string | null
  readonly onSelect: (circuit: string) => void
}

function CircuitsTable({ circuits, states, selected, onSelect }: CircuitsTableProps) {
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
                <Button
                  size="small"
                  variant="minimal"
                  text={c.circuit}
                  aria-pressed={c.circuit === selected}
                  aria-label={`Record a step on circuit ${c.circuit}`}
                  onClick={() => onSelect(c.circuit)}
                />
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
