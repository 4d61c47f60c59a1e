import { appConfig } from '../../shared/config'

/** Route paths compare case-insensitively (spec §2: /DailyWildfireRisk and /dailywildfirerisk). */
export function samePath(a: string, b: string): boolean {
  return normalizePath(a) === normalizePath(b)
}

export function normalizePath(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  return trimmed.toLowerCase()
}

export function isPublicPath(path: string): boolean {
  return appConfig.routes.public.some((p) => samePath(p, path))
}

export function usesLayout(path: string): boolean {
  return !appConfig.routes.noLayout.some((p) => samePath(p, path))
}

/** Only same-site paths are followed after sign-in (never //host or a full URL). */
export function safeReturnPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null
  return isPublicPath(next.split(/[?#]/)[0] ?? next) ? null : next
}

/** The login route, remembering where the user wanted to go. */
export function loginPathFor(requested: string): string {
  const next = safeReturnPath(requested)
  const login = appConfig.routes.login
  return next && !samePath(next, appConfig.routes.default)
    ? `${login}?next=${encodeURIComponent(next)}`
    : login
}

/** The title of a configured route, for the page title. */
export function routeTitle(path: string): string | null {
  return appConfig.routes.screens.find((screen) => samePath(screen.path, path))?.title ?? null
}
