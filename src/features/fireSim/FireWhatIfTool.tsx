import { Button, Callout, Card, HTMLSelect, Spinner } from '@blueprintjs/core'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { resolveColor } from '../../shared/config'
import { formatDate } from '../../shared/format'
import { notify } from '../../shared/toastEvents'
import {
  WHAT_IF_DEFAULT_HOURS,
  type FireWhatIfFeature,
  type FireWhatIfInfo,
  type FireWhatIfRequest,
  type FireWhatIfResult,
} from '../../shared/fireSim/wireTypes'
import { briefingPath } from '../briefing'
import { useMapHighlighter, type DrawnHighlight } from '../map'
import { fetchWhatIfInfo, runWhatIf } from './fireSimApi'
import { readFireUrl, roundPoint, writeFireUrl } from './fireUrl'
import { useWhatIfDrawing } from './useWhatIfDrawing'
import { WhatIfResultPanel } from './WhatIfResultPanel'
import './fireSim.css'

type View =
  | { readonly kind: 'closed' }
  | { readonly kind: 'armed' }
  | { readonly kind: 'running'; readonly request: FireWhatIfRequest }
  | { readonly kind: 'shown'; readonly request: FireWhatIfRequest; readonly result: FireWhatIfResult }
  | { readonly kind: 'failed'; readonly request: FireWhatIfRequest; readonly message: string }

const TOOL_LABEL = 'What if a fire starts here?'

function replaceSearch(search: string): void {
  const { pathname, hash } = window.location
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`)
}

/** Zooms to a listed feature and outlines it until the next one (or the tool closes). */
function useShowFeature(): (feature: FireWhatIfFeature) => void {
  const highlighter = useMapHighlighter()
  const outline = useRef<DrawnHighlight | null>(null)
  useEffect(() => () => outline.current?.remove(), [])
  return useCallback(
    (f: FireWhatIfFeature) => {
      if (!highlighter) return
      outline.current?.remove()
      highlighter.fitBbox(f.bbox, { padding: 60, maxZoom: 16 })
      outline.current = highlighter.outlineBbox(f.bbox, {
        color: resolveColor('highlight'),
        weight: 3,
        radius: 12,
        fill: false,
        className: 'el-fire-item-outline',
      })
    },
    [highlighter],
  )
}

/**
 * "What if a fire starts here?" (issue #31 item 4): a button over the map arms a one-shot click (or,
 * on a touch screen, a ~600 ms long-press anywhere on the map) that starts a simulated fire at that
 * point for the chosen forecast hour; the map shows its hourly isochrones and a panel what lies
 * inside. The what-if lives in the URL (`fireAt`, `fireHour`, `fireHours`), so a copied link reopens it.
 */
export function FireWhatIfTool() {
  const highlighter = useMapHighlighter()
  const navigate = useNavigate()
  const [info, setInfo] = useState<FireWhatIfInfo | null>(null)
  const [hour, setHour] = useState<number | null>(null)
  const [hours, setHours] = useState(WHAT_IF_DEFAULT_HOURS)
  const [view, setView] = useState<View>(() => {
    const shared = readFireUrl(window.location.search)
    return shared ? { kind: 'running', request: shared } : { kind: 'closed' }
  })
  const showFeature = useShowFeature()

  useEffect(() => {
    const controller = new AbortController()
    fetchWhatIfInfo(controller.signal).then(
      (i) => {
        setInfo(i)
        setHour((h) => h ?? i.currentHour)
      },
      () => undefined, // the tool still works: the server picks the current hour
    )
    return () => controller.abort()
  }, [])

  const start = useCallback(
    (lonLat: [number, number]) => {
      const [lon, lat] = roundPoint(lonLat[0], lonLat[1])
      setView({ kind: 'running', request: { lon, lat, ...(hour !== null ? { hour } : {}), hours } })
    },
    [hour, hours],
  )

  // The run: one request per what-if; its parameters go into the URL once it answers.
  const running = view.kind === 'running' ? view.request : null
  useEffect(() => {
    if (!running) return
    const controller = new AbortController()
    runWhatIf(running, controller.signal).then(
      (result) => {
        setHour(result.hour)
        setHours(result.hours)
        setView({ kind: 'shown', request: running, result })
        replaceSearch(
          writeFireUrl(window.location.search, { ...running, hour: result.hour, hours: result.hours }),
        )
      },
      (e: unknown) => {
        if (controller.signal.aborted) return
        setView({ kind: 'failed', request: running, message: e instanceof Error ? e.message : String(e) })
      },
    )
    return () => controller.abort()
  }, [running])

  // Armed: the next click on the map starts the fire.
  const armed = view.kind === 'armed'
  useEffect(() => {
    if (!highlighter || !armed) return
    const disarm = highlighter.pickPoint(start)
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setView({ kind: 'closed' })
    }
    window.addEventListener('keydown', escape)
    return () => {
      disarm()
      window.removeEventListener('keydown', escape)
    }
  }, [highlighter, armed, start])

  // On touch screens a long-press anywhere on the map starts a fire there (no need to arm first).
  useEffect(() => {
    if (!highlighter) return
    return highlighter.onLongPress(start, 600)
  }, [highlighter, start])

  const result = view.kind === 'shown' ? view.result : null
  useWhatIfDrawing(result)

  const clear = () => {
    setView({ kind: 'closed' })
    replaceSearch(writeFireUrl(window.location.search, null))
  }
  const copyLink = () => {
    const url = window.location.href
    navigator.clipboard.writeText(url).then(
      () => notify('success', 'Link to this fire copied'),
      () => notify('error', `Could not copy; the link is ${url}`),
    )
  }

  const hourOptions = info
    ? info.validTimes.map((t, h) => ({
        value: String(h),
        label: `${h === info.currentHour ? 'Now · ' : ''}${formatDate(t)} (hour ${h})`,
      }))
    : [{ value: '', label: 'Current hour' }]

  const open = view.kind !== 'closed'
  return (
    <div className="el-fire-tool">
      <Button
        icon="flame"
        intent={open ? 'warning' : 'none'}
        text={TOOL_LABEL}
        aria-pressed={armed}
        data-testid="fire-what-if"
        className="el-fire-tool-button"
        onClick={() => setView(armed ? { kind: 'closed' } : { kind: 'armed' })}
      />
      {open ? (
        <Card
          className="el-fire-panel bp6-dark"
          aria-label={TOOL_LABEL}
          role="region"
          data-testid="fire-panel"
        >
          <div className="el-fire-controls">
            <label>
              Forecast hour
              <HTMLSelect
                value={hour === null ? '' : String(hour)}
                options={hourOptions}
                onChange={(e) => setHour(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
              />
            </label>
            <label>
              Burn for
              <HTMLSelect
                value={String(hours)}
                options={Array.from({ length: info?.maxHours ?? 12 }, (_, i) => ({
                  value: String(i + 1),
                  label: `${i + 1} h`,
                }))}
                onChange={(e) => setHours(Number(e.currentTarget.value))}
              />
            </label>
          </div>
          {armed ? (
            <Callout intent="primary" icon="locate" data-testid="fire-armed">
              Click the map where the fire starts (on a touch screen, hold a finger on the map). Esc cancels.
            </Callout>
          ) : null}
          {view.kind === 'running' ? (
            <div className="el-fire-running" data-testid="fire-running">
              <Spinner size={20} aria-label="Simulating the fire" /> Simulating{' '}
              {view.request.hours ?? WHAT_IF_DEFAULT_HOURS} h of spread…
            </div>
          ) : null}
          {view.kind === 'failed' ? (
            <Callout intent="danger" title="No fire simulated" data-testid="fire-error">
              {view.message}
            </Callout>
          ) : null}
          {result ? <WhatIfResultPanel result={result} onShow={showFeature} /> : null}
          <div className="el-fire-actions">
            {view.kind === 'shown' || view.kind === 'failed' ? (
              <Button
                icon="refresh"
                text="Run again"
                onClick={() =>
                  setView({
                    kind: 'running',
                    request: { ...view.request, ...(hour !== null ? { hour } : {}), hours },
                  })
                }
              />
            ) : null}
            {result ? (
              <>
                <Button icon="link" text="Copy link" data-testid="fire-copy-link" onClick={copyLink} />
                <Button
                  icon="print"
                  text="Add to shift briefing"
                  data-testid="fire-briefing"
                  onClick={() => void navigate(briefingPath(window.location.search))}
                />
              </>
            ) : null}
            <Button
              icon="cross"
              text={result ? 'Clear' : 'Cancel'}
              data-testid="fire-clear"
              onClick={clear}
            />
          </div>
        </Card>
      ) : null}
    </div>
  )
}

/** The tool's title, for the docs and the toolbar. */
export const FIRE_WHAT_IF_TITLE = TOOL_LABEL
