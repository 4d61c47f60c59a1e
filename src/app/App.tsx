import { useMemo } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { SessionProvider } from '../features/session'
import { NavigationVisibilityProvider } from './layout/NavigationVisibility'
import { appRoutes } from './router/routes'

/** Providers and routes; nothing else. */
export function App() {
  const router = useMemo(() => createBrowserRouter(appRoutes()), [])
  return (
    <SessionProvider>
      <NavigationVisibilityProvider>
        <RouterProvider router={router} />
      </NavigationVisibilityProvider>
    </SessionProvider>
  )
}
