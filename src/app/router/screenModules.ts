import type { ComponentType } from 'react'
import { normalizePath } from './paths'

/** Which feature entry point (src/features/<feature>/index.ts) and export draws each route. */
interface ScreenSource {
  feature: string
  exportName: string
}

/** Adding a screen: one line here plus its route in config/app.yaml (routes.screens). */
const screenSources: Record<string, ScreenSource> = {
  '/dailywildfirerisk': { feature: 'risk', exportName: 'DailyWildfireRiskScreen' },
  '/documentation': { feature: 'docs', exportName: 'DocumentationScreen' },
  '/help': { feature: 'docs', exportName: 'HelpScreen' },
  '/settings': { feature: 'settings', exportName: 'SettingsScreen' },
  '/alerts': { feature: 'operations', exportName: 'AlertsScreen' },
  '/briefing': { feature: 'briefing', exportName: 'BriefingScreen' },
  '/psps': { feature: 'operations', exportName: 'PspsScreen' },
  '/planningmode': { feature: 'operations', exportName: 'PlanningModeScreen' },
  '/mitigationanalysis': { feature: 'operations', exportName: 'MitigationAnalysisScreen' },
  '/login/authenticate': { feature: 'auth', exportName: 'LoginScreen' },
  '/login/reset': { feature: 'auth', exportName: 'ResetScreen' },
}

// The screens' feature entry points (the features named above), each in its own lazily loaded
// chunk. A feature that does not exist yet simply has no entry here, so the app still builds.
const featureModules = import.meta.glob<Record<string, unknown>>(
  '../../features/{risk,docs,settings,map,auth,operations,briefing}/index.ts',
)

export type ScreenLoader = () => Promise<ComponentType | null>

/** The lazy loader of a route's screen, or null when no screen is registered for the path. */
export function screenLoaderFor(path: string): ScreenLoader | null {
  const source = screenSources[normalizePath(path)]
  if (!source) return null
  const load = featureModules[`../../features/${source.feature}/index.ts`]
  if (!load) return async () => null
  return async () => {
    const module = await load()
    const screen = module[source.exportName]
    const isComponent =
      typeof screen === 'function' || (typeof screen === 'object' && screen !== null && '$$typeof' in screen)
    return isComponent ? (screen as ComponentType) : null
  }
}
