import { useEffect } from 'react'
import { Outlet, useLocation } from 'react-router'
import { appConfig } from '../shared/config'
import { routeTitle } from './router/paths'
import { clearToasts, useToastEvents } from './toasts'

/** Above every route: clears toasts on each change of page address (spec §2) and sets the title. */
export function RootShell() {
  const { pathname, search } = useLocation()
  useToastEvents()
  useEffect(() => {
    clearToasts()
  }, [pathname, search])
  useEffect(() => {
    const title = routeTitle(pathname)
    document.title = title ? `${title} · ${appConfig.brand.name}` : appConfig.brand.name
  }, [pathname])
  return <Outlet />
}
