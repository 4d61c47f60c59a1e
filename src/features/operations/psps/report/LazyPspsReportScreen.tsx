import { Spinner } from '@blueprintjs/core'
import { lazy, Suspense } from 'react'

// Its own chunk (with its print stylesheet): the PSPS view links here without loading it.
const Screen = lazy(() => import('./PspsReportScreen').then((m) => ({ default: m.PspsReportScreen })))

/** The PSPS post-event report screen, fetched when first opened. */
export function LazyPspsReportScreen() {
  return (
    <Suspense fallback={<Spinner size={40} aria-label="Loading the report" />}>
      <Screen />
    </Suspense>
  )
}
