import { appConfig } from '../../../shared/config'

/** The four operations routes, in the order the view switcher shows them. */
export const OPERATIONS_PATHS = ['/Alerts', '/PSPS', '/PlanningMode', '/MitigationAnalysis'] as const

export interface OperationsView {
  readonly path: string
  readonly title: string
  readonly current: boolean
}

/** The operations views with their configured titles (routes.screens) and which one `pathname` is. */
export function operationsViews(pathname: string): OperationsView[] {
  const here = pathname.toLowerCase().replace(/\/+$/, '')
  return OPERATIONS_PATHS.map((path) => ({
    path,
    title:
      appConfig.routes.screens.find((s) => s.path.toLowerCase() === path.toLowerCase())?.title ??
      path.slice(1),
    current: here === path.toLowerCase(),
  }))
}
