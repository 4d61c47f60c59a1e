import { redirect, type LoaderFunctionArgs } from 'react-router'
import { appConfig } from '../../shared/config'
import { liveSession } from '../../features/session'
import { loginPathFor, safeReturnPath } from './paths'

/** Runs on each navigation to a protected route: no live session → the login route (spec §2). */
export function requireSession({ request }: LoaderFunctionArgs): null {
  if (liveSession()) return null
  const url = new URL(request.url)
  throw redirect(loginPathFor(`${url.pathname}${url.search}`))
}

/** The login route of a signed-in user goes straight to the asked-for page. */
export function skipLoginWhenSignedIn({ request }: LoaderFunctionArgs): null {
  if (!liveSession()) return null
  const next = safeReturnPath(new URL(request.url).searchParams.get('next'))
  throw redirect(next ?? appConfig.routes.default)
}
