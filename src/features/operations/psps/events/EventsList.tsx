import {
  Button,
  Callout,
  FormGroup,
  HTMLTable,
  InputGroup,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core'
import { useState, type FormEvent } from 'react'
import { formatDate } from '../../../../shared/format'
import { useFetched } from '../../shared/useFetched'
import {
  createEventFromForecast,
  fetchEvents,
  type PspsEventActions,
  type PspsEventSummary,
} from './eventsApi'
import { PhaseTag } from './PhaseTag'

export interface EventsListProps {
  /** Opens an event's page. */
  readonly onOpen: (id: number) => void
  /** What the member may do: without `create`, no form to start an event. */
  readonly actions: PspsEventActions
}

/** The PSPS events (newest first) and the form that starts one from the forecast roll-up. */
export function EventsList({ onOpen, actions }: EventsListProps) {
  const [reload, setReload] = useState(0)
  const events = useFetched(`events:${reload}`, (signal) => fetchEvents(signal))
  const [name, setName] = useState('')
  const [creating, setCreating] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const create = async (e: FormEvent) => {
    e.preventDefault()
    setCreating(true)
    setError(null)
    try {
      const event = await createEventFromForecast(name.trim())
      setName('')
      setReload((n) => n + 1)
      onOpen(event.id)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setCreating(false)
    }
  }

  const list = events.data
  return (
    <section className="el-psps-events" aria-label="PSPS events" aria-busy={events.status === 'loading'}>
      {actions.create ? (
        <form className="el-psps-new-event" onSubmit={(e) => void create(e)}>
          <FormGroup label="New event name" labelFor="el-psps-new-event-name" inline>
            <InputGroup
              id="el-psps-new-event-name"
              value={name}
              placeholder="e.g. Santa Ana wind event, Nov 27"
              onValueChange={setName}
            />
          </FormGroup>
          <Button
            type="submit"
            intent="primary"
            icon="add"
            text="New event from forecast"
            loading={creating}
            disabled={name.trim() === ''}
          />
        </form>
      ) : null}
      {error !== null ? (
        <Callout intent="danger" title="Could not create the event" role="alert">
          {error}
        </Callout>
      ) : null}
      {events.status === 'error' ? (
        <Callout intent="danger" role="alert">
          Could not load the events: {events.message}
        </Callout>
      ) : null}
      {list === null ? (
        <Spinner size={24} aria-label="Loading the PSPS events" />
      ) : list.length === 0 ? (
        <NonIdealState
          icon="calendar"
          title="No PSPS events yet"
          description="Start one from the forecast."
        />
      ) : (
        <EventsTable events={list} onOpen={onOpen} />
      )}
    </section>
  )
}

function EventsTable({
  events,
  onOpen,
}: {
  events: readonly PspsEventSummary[]
  onOpen: (id: number) => void
}) {
  const newestFirst = [...events].sort(
    (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id,
  )
  return (
    <HTMLTable compact striped className="el-ops-table el-psps-events-table" aria-label="PSPS events">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Phase</th>
          <th scope="col">Created</th>
          <th scope="col" className="el-ops-num">
            Circuits
          </th>
        </tr>
      </thead>
      <tbody>
        {newestFirst.map((e) => (
          <tr key={e.id} data-event={e.id}>
            <td>
              <Button variant="minimal" size="small" text={e.name} onClick={() => onOpen(e.id)} />
            </td>
            <td>
              <PhaseTag phase={e.phase} />
            </td>
            <td>{formatDate(e.createdAt)}</td>
            <td className="el-ops-num">
              <Tag minimal round>
                {e.circuitCount}
              </Tag>
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  )
}
