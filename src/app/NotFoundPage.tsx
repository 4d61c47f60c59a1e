import { Button, NonIdealState } from '@blueprintjs/core'
import { useLocation, useNavigate } from 'react-router'
import { appConfig } from '../shared/config'

/** Any path that is not a route of spec §2. */
export function NotFoundPage() {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  return (
    <NonIdealState
      className="emberline-not-found"
      icon="path-search"
      title="Page not found"
      description={`Nothing lives at ${pathname}.`}
      action={
        <Button intent="primary" onClick={() => void navigate(appConfig.routes.default)}>
          {appConfig.topBar.primaryTab.label}
        </Button>
      }
    />
  )
}
