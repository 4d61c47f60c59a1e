import { appConfig } from '../../generated/config'

/** The configured title of a route (appConfig.routes.screens), matched case-insensitively. */
export function screenTitle(path: string): string {
  const screen = appConfig.routes.screens.find((s) => s.path.toLowerCase() === path.toLowerCase())
  return screen?.title ?? path.replace(/^\//, '')
}
