import { Spinner } from '@blueprintjs/core'
import { lazy, Suspense } from 'react'

// Its own chunk: the operations views link here (BriefingLink) without loading the briefing.
const Screen = lazy(() => import('./BriefingScreen').then((m) => ({ default: m.BriefingScreen })))

/** The briefing screen, fetched when first opened. */
export function LazyBriefingScreen() {
  return (
    <Suspense fallback={<Spinner size={40} aria-label="Loading the briefing" />}>
      <Screen />
    </Suspense>
  )
}
