import { NonIdealState } from '@blueprintjs/core'
import { isRouteErrorResponse, useRouteError } from 'react-router'

/** Shown when a route fails (a screen that failed to load even after the reload). */
export function RouteError() {
  const error = useRouteError()
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error)
  return (
    <NonIdealState
      className="emberline-route-error"
      icon="error"
      title="This screen could not be loaded"
      description={detail}
    />
  )
}
