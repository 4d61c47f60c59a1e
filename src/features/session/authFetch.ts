import { appConfig } from '../../shared/config'

/** The session token the Stytch SDK keeps in its same-origin cookie, if signed in. */
export function currentSessionToken(cookie: string = globalThis.document?.cookie ?? ''): string | null {
  const name = `${appConfig.identity.cookies.session}=`
  for (const part of cookie.split(';')) {
    const item = part.trim()
    if (item.startsWith(name)) return decodeURIComponent(item.slice(name.length)) || null
  }
  return null
}

/** fetch() for the data API: JSON content type and the bearer session token (spec §7). */
export function authFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('Content-Type', 'application/json')
  const token = currentSessionToken()
  if (token) headers.set('Authorization', `Bearer ${token}`)
  return fetch(input, { ...init, headers })
}
