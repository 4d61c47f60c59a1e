import { Button, Spinner } from '@blueprintjs/core'
import { useEffect, useState } from 'react'
import type { FireWhatIfResult } from '../../shared/fireSim/wireTypes'
import { runWhatIf } from './fireSimApi'
import { readFireUrl, writeFireUrl } from './fireUrl'
import { useWhatIfDrawing } from './useWhatIfDrawing'
import { WhatIfResultPanel } from './WhatIfResultPanel'

type State =
  | { readonly kind: 'running' }
  | { readonly kind: 'ready'; readonly result: FireWhatIfResult }
  | { readonly kind: 'failed'; readonly message: string }

/**
 * The shift briefing's "Fire what-if" section, when its URL carries one (`fireAt`, `fireHour`,
 * `fireHours`, added by the map tool's "Add to shift briefing"): the same simulation run again,
 * its isochrones drawn on the briefing's map (on a canvas, so the printed map picture has them) and
 * its summary and lists printed. Loaded lazily by BriefingSheet, only for such a URL.
 */
export function FireBriefingSection() {
  const [request, setRequest] = useState(() => readFireUrl(window.location.search))
  const [state, setState] = useState<State>({ kind: 'running' })
  useEffect(() => {
    if (!request) return
    const controller = new AbortController()
    runWhatIf(request, controller.signal).then(
      (result) => setState({ kind: 'ready', result }),
      (e: unknown) => {
        if (!controller.signal.aborted)
          setState({ kind: 'failed', message: e instanceof Error ? e.message : String(e) })
      },
    )
    return () => controller.abort()
  }, [request])
  useWhatIfDrawing(state.kind === 'ready' && request ? state.result : null, { canvas: true })
  if (!request) return null
  const remove = () => {
    const { pathname, hash } = window.location
    window.history.replaceState(
      window.history.state,
      '',
      `${pathname}${writeFireUrl(window.location.search, null)}${hash}`,
    )
    setRequest(null)
  }
  return (
    <section
      className="el-briefing-section el-briefing-fire"
      aria-labelledby="briefing-fire"
      data-testid="briefing-fire"
    >
      <h2 id="briefing-fire">Fire what-if</h2>
      {state.kind === 'running' ? <Spinner size={24} aria-label="Simulating the fire" /> : null}
      {state.kind === 'failed' ? <p>The fire could not be simulated: {state.message}</p> : null}
      {state.kind === 'ready' ? <WhatIfResultPanel result={state.result} /> : null}
      <Button
        className="el-briefing-screen-only"
        icon="cross"
        text="Remove from the briefing"
        onClick={remove}
      />
    </section>
  )
}
