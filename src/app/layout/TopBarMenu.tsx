import { Menu, MenuDivider, MenuItem } from '@blueprintjs/core'
import type { MenuEntry } from './topBarItems'

interface Props {
  entries: readonly MenuEntry[]
  activePath?: string
  onNavigate(path: string): void
  onLogout(): void
}

/** The overflow menu and the mobile drawer's list: links, dividers and the logout action. */
export function TopBarMenu({ entries, activePath, onNavigate, onLogout }: Props) {
  return (
    <Menu>
      {entries.map((entry, index) => {
        if (entry.divider) return <MenuDivider key={`divider-${index}`} />
        const { path, label } = entry
        const onClick = entry.action === 'logout' ? onLogout : path ? () => onNavigate(path) : undefined
        return (
          <MenuItem
            key={label ?? index}
            text={label}
            icon={entry.action === 'logout' ? 'log-out' : undefined}
            active={
              path !== undefined &&
              activePath !== undefined &&
              path.toLowerCase() === activePath.toLowerCase()
            }
            onClick={onClick}
          />
        )
      })}
    </Menu>
  )
}
