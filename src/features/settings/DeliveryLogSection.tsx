import { Button, Callout, H3, HTMLTable } from '@blueprintjs/core'
import { useCallback, useEffect, useState } from 'react'
import { formatDate } from '../../shared/format'
import { fetchDeliveryLog, type DeliveryLogEntry } from './alertSubscriptionApi'

/** For administrators: the newest alert deliveries, failures, retries and holds. Hidden for others. */
export function DeliveryLogSection() {
  const [entries, setEntries] = useState<DeliveryLogEntry[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const reload = useCallback(() => {
    fetchDeliveryLog().then(
      (list) => {
        setEntries(list)
        setError(null)
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    )
  }, [])
  useEffect(reload, [reload])
  if (error) return <Callout intent="danger">{error}</Callout>
  if (entries === null) return null
  return (
    <div className="emberline-settings-delivery-log" data-testid="settings-delivery-log">
      <H3>
        Delivery log{' '}
        <Button variant="minimal" icon="refresh" aria-label="Refresh the delivery log" onClick={reload} />
      </H3>
      {entries.length === 0 ? (
        <p className="bp6-text-muted">No alert has been delivered yet.</p>
      ) : (
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>Time</th>
              <th>Member</th>
              <th>Channel</th>
              <th>Message</th>
              <th>Event</th>
              <th>Attempt</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{formatDate(e.at)}</td>
                <td>{e.memberEmail ?? e.memberId}</td>
                <td>{e.channel ?? '—'}</td>
                <td title={e.alertIds.join('\n')}>
                  {e.kind} ({e.alertIds.length})
                </td>
                <td>{e.event}</td>
                <td>{e.attempt ?? '—'}</td>
                <td>{e.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  )
}
