import { Button, Callout, H2, HTMLTable, ProgressBar } from '@blueprintjs/core'
import { useCallback, useEffect, useState } from 'react'
import { formatDate } from '../../shared/format'
import { fetchLatestFireRun, startFireRun, type FireRunView } from './fireRunsApi'

/** How often the section asks again while a run is running. */
const POLL_MS = 3000

const seconds = (from: string, to: string | null) =>
  to ? `${Math.round((Date.parse(to) - Date.parse(from)) / 1000)} s` : 'running'

/**
 * For administrators (the fire_runs permission): the latest fire consequence run — status, batches
 * done of total, each server's share and time — and "Run now". Hidden for everyone else.
 */
export function FireRunsSection() {
  const [run, setRun] = useState<FireRunView | null | undefined>(undefined)
  const [error, setError] = useState<string | null>(null)
  const [starting, setStarting] = useState(false)
  const reload = useCallback(() => {
    fetchLatestFireRun().then(
      (r) => {
        setRun(r)
        setError(null)
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    )
  }, [])
  useEffect(reload, [reload])
  useEffect(() => {
    if (run?.status !== 'running') return
    const timer = setInterval(reload, POLL_MS)
    return () => clearInterval(timer)
  }, [run?.status, reload])
  if (run === undefined && !error) return null
  const runNow = () => {
    setStarting(true)
    startFireRun().then(
      () => {
        setStarting(false)
        reload()
      },
      (e: unknown) => {
        setStarting(false)
        setError(e instanceof Error ? e.message : String(e))
      },
    )
  }
  return (
    <section aria-labelledby="fire-runs-title" data-testid="settings-fire-runs">
      <H2 id="fire-runs-title">Fire consequence run</H2>
      {error ? <Callout intent="danger">{error}</Callout> : null}
      {run ? (
        <>
          <p>
            Run {run.id} ({run.trigger === 'weather' ? 'after a weather update' : 'run now'}), wind run{' '}
            {formatDate(run.referenceTime)}: <strong>{run.status}</strong>
            {run.error ? ` — ${run.error}` : ''}
          </p>
          <ProgressBar
            value={run.batchesTotal > 0 ? run.batchesDone / run.batchesTotal : 1}
            intent={run.status === 'failed' ? 'danger' : run.status === 'complete' ? 'success' : 'primary'}
            animate={run.status === 'running'}
            stripes={run.status === 'running'}
          />
          <p>
            {run.batchesDone} of {run.batchesTotal} batches,{' '}
            {Math.round(run.ignitionsTotal / Math.max(1, run.startHours.length))} ignitions ×{' '}
            {run.startHours.length} forecast starts; started {formatDate(run.createdAt)},{' '}
            {seconds(run.createdAt, run.finishedAt)}
          </p>
          {run.servers && run.servers.length > 0 ? (
            <HTMLTable compact striped>
              <thead>
                <tr>
                  <th>Server</th>
                  <th>Batches done</th>
                  <th>Running</th>
                  <th>Batch time</th>
                </tr>
              </thead>
              <tbody>
                {run.servers.map((s) => (
                  <tr key={s.server}>
                    <td>{s.server}</td>
                    <td>{s.done}</td>
                    <td>{s.running}</td>
                    <td>{Math.round(s.batchMs / 1000)} s</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          ) : null}
        </>
      ) : (
        <p className="bp6-text-muted">No consequence run yet.</p>
      )}
      <Button icon="play" onClick={runNow} loading={starting} disabled={run?.status === 'running'}>
        Run now
      </Button>
    </section>
  )
}
