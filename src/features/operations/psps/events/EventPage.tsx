import { Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core'
import { useEffect, useMemo, useState } from 'react'
import { formatDate } from '../../../../shared/format'
import { useFetched } from '../../shared/useFetched'
import { EventTimeline } from './EventTimeline'
import { isOff, replayRange, stateAt, type CircuitState } from './eventReplay'
import {
  changePhase,
  fetchEvent,
  recordStep,
  type CircuitStep,
  type PspsEventDetail,
  type PspsEventActions,
  type PspsPhase,
} from './eventsApi'
import { eventTimeline, historiesOf } from './eventTimeline'
import { PhaseTag } from './PhaseTag'
import { ReplaySlider } from './ReplaySlider'
import { StepForm } from './StepForm'
import { STATE_COLOURS } from './circuitStates'
import { CircuitsTable, PhaseButtons, STATE_TEXT } from './EventControls'
import { useCircuitLines, useEventCircuitMap } from './useEventCircuitMap'
import { resolveColor } from '../../../../shared/config'

export interface EventPageProps {
  readonly id: number
  readonly onBack: () => void
  readonly onReport: (id: number) => void
  /** What the member may do: without `update`, no phase or step buttons (the page only reads). */
  readonly actions: PspsEventActions
}

/** One PSPS event: its circuits on the map by state, the replay, the steps to record, phases and timeline. */
export function EventPage({ id, onBack, onReport, actions }: EventPageProps) {
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
    <EventView
      event={event}
      actions={actions}
      onBack={onBack}
      onReport={onReport}
      onChanged={() => setVersion((v) => v + 1)}
    />
  )
}

export interface EventViewProps {
  readonly event: PspsEventDetail
  readonly actions: PspsEventActions
  readonly onBack: () => void
  readonly onReport: (id: number) => void
  readonly onChanged: () => void
}

/** An event's page once loaded; the record buttons only for a member with `psps_events.update`. */
export function EventView({ event, actions, onBack, onReport, onChanged }: EventViewProps) {
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
      <PhaseButtons
        phase={event.phase}
        nextPhases={event.nextPhases}
        canChange={actions.update}
        busy={busy}
        onMove={movePhase}
      />
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
          canRecord={actions.update}
          onSelect={(c) => setSelected((s) => (s === c ? null : c))}
        />
        {chosen && actions.update && event.phase !== 'closed' ? (
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
