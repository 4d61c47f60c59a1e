import type { ComponentType } from 'react'
import { redirect, type RouteObject } from 'react-router'
import { appConfig } from '../../shared/config'
import { BootSpinner } from '../BootSpinner'
import { DefaultLayout } from '../layout/DefaultLayout'
import { RootShell } from '../RootShell'
import { RouteError } from '../RouteError'
import { requireSession, skipLoginWhenSignedIn } from './guards'
import { browserReloadEnv, loadWithReloadOnce } from './loadWithReloadOnce'
import { isPublicPath, samePath, usesLayout } from './paths'
import { screenLoaderFor } from './screens'

/** In place of a screen whose code failed to load twice (spec §8: only logged). */
function NothingLoaded() {
  return null
}

function screenRoute(path: string): RouteObject {
  const loader = screenLoaderFor(path)
  if (!loader)
    throw new Error(
      `No screen for route '${path}' (config/app.yaml routes.screens): add it to src/app/router/screens.ts`,
    )
  return {
    path,
    loader: samePath(path, appConfig.routes.login) ? skipLoginWhenSignedIn : undefined,
    lazy: async () => {
      // A screen that failed to load even after the reload is only logged: nothing in its place.
      const Screen = await loadWithReloadOnce(loader, browserReloadEnv())
      const Component: ComponentType = Screen ?? NothingLoaded
      return { Component }
    },
  }
}

const notFoundRoute: RouteObject = {
  path: '*',
  lazy: async () => {
    const module = await loadWithReloadOnce(() => import('../NotFoundPage'), browserReloadEnv())
    return { Component: module?.NotFoundPage ?? NothingLoaded }
  },
}

/**
 * The route table, built from config (routes.screens, public, noLayout): / redirects to the
 * default route; protected routes check the session on every navigation; unknown paths get the
 * not-found page. React Router matches paths case-insensitively.
 */
export function appRoutes(): RouteObject[] {
  const { screens, home, default: defaultPath } = appConfig.routes
  const group = (isPublic: boolean, layout: boolean) =>
    screens
      .filter((s) => isPublicPath(s.path) === isPublic && usesLayout(s.path) === layout)
      .map((s) => screenRoute(s.path))
  return [
    {
      element: <RootShell />,
      errorElement: <RouteError />,
      HydrateFallback: BootSpinner,
      children: [
        { path: home, loader: () => redirect(defaultPath) },
        { element: <DefaultLayout />, errorElement: <RouteError />, children: group(true, true) },
        { errorElement: <RouteError />, children: group(true, false) },
        {
          id: 'protected',
          loader: requireSession,
          shouldRevalidate: () => true,
          errorElement: <RouteError />,
          children: [
            {
              element: <DefaultLayout />,
              errorElement: <RouteError />,
              children: [...group(false, true), notFoundRoute],
            },
            { children: group(false, false) },
          ],
        },
      ],
    },
  ]
}
