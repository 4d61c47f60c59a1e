import { Tab, Tabs } from '@blueprintjs/core'
import { useLocation, useNavigate } from 'react-router'
import { OperationsScreen } from '../shared/OperationsScreen'
import { EventPage } from './events/EventPage'
import { EventsList } from './events/EventsList'
import { fetchPspsEventActions, READ_ONLY } from './events/eventsApi'
import { isReportQuery, reportPath } from './events/reportPath'
import { useFetched } from '../shared/useFetched'
import { LazyPspsReportScreen } from './report/LazyPspsReportScreen'
import { PspsPanel } from './PspsPanel'
import './events/pspsEvents.css'

/** The current query with `changes` applied (null deletes), keeping the map's share parameters. */
function withParams(changes: Record<string, string | null>): string {
  const params = new URLSearchParams(window.location.search)
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) params.delete(k)
    else params.set(k, v)
  }
  const text = params.toString().replaceAll('%2C', ',').replaceAll('%3A', ':')
  return text ? `?${text}` : ''
}

/** The PSPS view's content: an event's page (`?event=<id>`), or the next event and the events list. */
function PspsView() {
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  // The member's PSPS event permissions (GET /api/me): read-only until known.
  const actions =
    useFetched('psps-event-actions', (signal) => fetchPspsEventActions(signal)).data ?? READ_ONLY
  const params = new URLSearchParams(search)
  const event = Number(params.get('event'))
  const open = (id: number | null) =>
    void navigate(`${pathname}${withParams({ event: id === null ? null : String(id), tab: null })}`)
  if (Number.isInteger(event) && event > 0) {
    return (
      <section className="el-ops-panel el-psps-event-panel">
        <EventPage
          id={event}
          actions={actions}
          onBack={() => void navigate(`${pathname}${withParams({ event: null, tab: 'events' })}`)}
          onReport={(id) => void navigate(reportPath(id))}
        />
      </section>
    )
  }
  const tab = params.get('tab') === 'events' ? 'events' : 'next'
  return (
    <div className="el-psps-view">
      <Tabs
        id="el-psps-tabs"
        selectedTabId={tab}
        renderActiveTabPanelOnly
        onChange={(id) =>
          void navigate(`${pathname}${withParams({ tab: id === 'events' ? 'events' : null })}`, {
            replace: true,
          })
        }
      >
        <Tab id="next" title="Next event" panel={<PspsPanel />} />
        <Tab
          id="events"
          title="Events"
          panel={
            <section className="el-ops-panel">
              <EventsList onOpen={open} actions={actions} />
            </section>
          }
        />
      </Tabs>
    </div>
  )
}

/**
 * /PSPS: the map (PSPS layers on) with the next event's roll-up and the PSPS events; with
 * `?event=<id>&view=report`, that event's printable post-event report.
 */
export function PspsScreen() {
  const { search } = useLocation()
  if (isReportQuery(search)) return <LazyPspsReportScreen />
  return (
    <OperationsScreen>
      <PspsView />
    </OperationsScreen>
  )
}
