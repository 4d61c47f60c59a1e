import { Button, ButtonGroup, Checkbox, FormGroup, TextArea } from '@blueprintjs/core'
import { useState } from 'react'
import type { CircuitState } from './eventReplay'
import type { CircuitStep, EventCircuit } from './eventsApi'
import { fromLocalInput, toLocalInput } from './localTime'

export interface StepFormProps {
  readonly circuit: EventCircuit
  /** The circuit's state now. */
  readonly state: CircuitState
  readonly busy: boolean
  readonly onRecord: (step: CircuitStep) => void
}

/**
 * Records the next step of one circuit: de-energize, patrolled, restore at a time (now unless edited),
 * and the damage found and notes of its latest de-energization.
 */
export function StepForm({ circuit, state, busy, onRecord }: StepFormProps) {
  const latest = circuit.periods.at(-1) ?? null
  const [time, setTime] = useState(() => toLocalInput(Date.now()))
  const [damage, setDamage] = useState(latest?.damageFound === true)
  const [notes, setNotes] = useState(latest?.notes ?? '')
  const iso = fromLocalInput(time)
  const off = state === 'off' || state === 'patrolled'
  const id = `el-psps-step-time-${circuit.circuit}`
  const at = (key: 'deenergizedAt' | 'patrolledAt' | 'restoredAt') => () => {
    if (iso !== null) onRecord({ [key]: iso })
  }
  return (
    <section className="el-psps-step" aria-label={`Record a step on circuit ${circuit.circuit}`}>
      <h3>Circuit {circuit.circuit}</h3>
      <div className="el-psps-step-row">
        <FormGroup label="Time" labelFor={id} inline helperText="Now unless changed (your local time)">
          <input
            id={id}
            className="bp6-input"
            type="datetime-local"
            value={time}
            onChange={(e) => setTime(e.currentTarget.value)}
          />
        </FormGroup>
        <Button size="small" variant="minimal" text="Now" onClick={() => setTime(toLocalInput(Date.now()))} />
      </div>
      <ButtonGroup className="el-psps-step-buttons">
        <Button
          intent="danger"
          icon="offline"
          text="De-energize"
          disabled={busy || iso === null || off}
          onClick={at('deenergizedAt')}
        />
        <Button
          intent="warning"
          icon="path-search"
          text="Patrolled"
          disabled={busy || iso === null || state !== 'off'}
          onClick={at('patrolledAt')}
        />
        <Button
          intent="success"
          icon="power"
          text="Restore"
          disabled={busy || iso === null || !off}
          onClick={at('restoredAt')}
        />
      </ButtonGroup>
      {latest ? (
        <div className="el-psps-step-notes">
          <Checkbox
            label="Damage found on patrol"
            checked={damage}
            onChange={(e) => setDamage(e.currentTarget.checked)}
          />
          <FormGroup label="Notes" labelFor={`${id}-notes`}>
            <TextArea
              id={`${id}-notes`}
              fill
              rows={2}
              value={notes}
              onChange={(e) => setNotes(e.currentTarget.value)}
            />
          </FormGroup>
          <Button
            size="small"
            icon="floppy-disk"
            text="Save damage and notes"
            disabled={busy}
            onClick={() => onRecord({ damageFound: damage, notes: notes.trim() === '' ? null : notes })}
          />
        </div>
      ) : null}
    </section>
  )
}
