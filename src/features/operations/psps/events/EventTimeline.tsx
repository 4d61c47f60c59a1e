import { formatDate } from '../../../../shared/format'
import { PhaseTag } from './PhaseTag'
import type { TimelineEntry } from './eventTimeline'

const STEP_TEXT = { deenergized: 'de-energized', patrolled: 'patrolled', restored: 'restored' } as const

/** The event's phase changes (with the notifications sent in each) and circuit steps, oldest first. */
export function EventTimeline({ entries }: { readonly entries: readonly TimelineEntry[] }) {
  return (
    <section className="el-psps-timeline" aria-labelledby="el-psps-timeline-title">
      <h3 id="el-psps-timeline-title">Timeline</h3>
      <ol>
        {entries.map((e, i) => (
          <li key={i} className={`el-psps-timeline-${e.kind}`} data-kind={e.kind}>
            <time dateTime={new Date(e.at).toISOString()}>{formatDate(e.at)}</time>{' '}
            {e.kind === 'phase' ? (
              <>
                <span>Phase </span>
                <PhaseTag phase={e.phase} />
                {e.by ? <span className="bp6-text-muted"> by {e.by}</span> : null}
                <Notifications list={e.notifications} />
              </>
            ) : (
              <span>
                Circuit <strong>{e.circuit}</strong> {STEP_TEXT[e.kind]}
              </span>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

function Notifications({
  list,
}: {
  readonly list: Extract<TimelineEntry, { kind: 'phase' }>['notifications']
}) {
  if (list.length === 0)
    return <div className="el-psps-notifications bp6-text-muted">No notifications sent</div>
  return (
    <div className="el-psps-notifications">
      {list.length} {list.length === 1 ? 'notification' : 'notifications'} sent:{' '}
      {list.map((n) => `${formatDate(n.at)}${n.channel ? ` (${n.channel})` : ''}`).join(', ')}
    </div>
  )
}
