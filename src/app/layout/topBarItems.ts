import { appConfig } from '../../shared/config'
import { briefingPath } from '../../features/briefing'
import { samePath } from '../router/paths'

/** One entry of the top bar's overflow menu (config topBar.menu). */
export interface MenuEntry {
  label?: string
  path?: string
  action?: string
  divider?: boolean
}

export const menuEntries: readonly MenuEntry[] = appConfig.topBar.menu

/** The mobile drawer lists the primary tab, then the menu's entries (no dividers). */
export function drawerEntries(): MenuEntry[] {
  const { primaryTab } = appConfig.topBar
  return [
    { label: primaryTab.label, path: primaryTab.path },
    ...menuEntries.filter((entry) => !entry.divider),
  ]
}

/** Where a menu path leads from the current page: the briefing keeps the page's map view (share query). */
export function menuTarget(path: string, search: string): string {
  return samePath(path, briefingPath('')) ? briefingPath(search) : path
}
