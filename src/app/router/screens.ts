import type { ComponentType } from 'react'
import { normalizePath } from './paths'

/** Loads a route's screen: each feature's entry point (index.ts) is its own lazily loaded chunk. */
export type ScreenLoader = () => Promise<ComponentType>

/** Adding a screen: one line here plus its route in config/app.yaml (routes.screens). */
const screens: Readonly<Record<string, ScreenLoader>> = {
  '/dailywildfirerisk': () => import('../../features/risk').then((m) => m.DailyWildfireRiskScreen),
  '/documentation': () => import('../../features/docs').then((m) => m.DocumentationScreen),
  '/help': () => import('../../features/docs').then((m) => m.HelpScreen),
  '/settings': () => import('../../features/settings').then((m) => m.SettingsScreen),
  '/alerts': () => import('../../features/operations').then((m) => m.AlertsScreen),
  '/briefing': () => import('../../features/briefing').then((m) => m.BriefingScreen),
  '/psps': () => import('../../features/operations').then((m) => m.PspsScreen),
  '/planningmode': () => import('../../features/operations').then((m) => m.PlanningModeScreen),
  '/mitigationanalysis': () => import('../../features/operations').then((m) => m.MitigationAnalysisScreen),
  '/login/authenticate': () => import('../../features/auth').then((m) => m.LoginScreen),
  '/login/reset': () => import('../../features/auth').then((m) => m.ResetScreen),
}

/** The loader of a route's screen (paths compare case-insensitively), undefined for an unknown path. */
export function screenLoaderFor(path: string): ScreenLoader | undefined {
  return screens[normalizePath(path)]
}
