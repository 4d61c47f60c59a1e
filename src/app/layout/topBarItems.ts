import { appConfig } from '../../generated/config'

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
