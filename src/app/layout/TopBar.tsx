import { Alignment, Button, Drawer, Navbar, NavbarGroup, NavbarHeading, PopoverNext } from '@blueprintjs/core'
import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { appConfig } from '../../shared/config'
import { useSession } from '../../features/session'
import { samePath } from '../router/paths'
import { DemoBadge } from './DemoBadge'
import { Logo } from './Logo'
import { TopBarMenu } from './TopBarMenu'
import { drawerEntries, menuEntries, menuTarget } from './topBarItems'
import { useMediaQuery } from './useMediaQuery'

const narrowQuery = '(max-width: 768px)'

/** Top bar of spec §2: logo and brand, the primary tab, 'More options' menu; a drawer on mobile. */
export function TopBar() {
  const { primaryTab, height, moreOptionsLabel } = appConfig.topBar
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  const { logout } = useSession()
  const narrow = useMediaQuery(narrowQuery)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const primaryActive = samePath(pathname, primaryTab.path)

  const go = (path: string) => {
    setDrawerOpen(false)
    void navigate(menuTarget(path, window.location.search))
  }
  const signOut = () => {
    setDrawerOpen(false)
    logout()
  }

  return (
    <Navbar className="emberline-topbar" style={{ height }}>
      <NavbarGroup align={Alignment.START} style={{ height }}>
        <Logo />
        <NavbarHeading className="emberline-brand">{appConfig.brand.name}</NavbarHeading>
        <DemoBadge />
      </NavbarGroup>
      <NavbarGroup align={Alignment.END} style={{ height }}>
        {narrow ? (
          <Button variant="minimal" icon="menu" aria-label="Open menu" onClick={() => setDrawerOpen(true)} />
        ) : (
          <>
            {/* A link drawn as a tab: it goes to a page (aria-current), it controls no tab panel. */}
            <nav className="emberline-primary-nav" aria-label="Primary">
              <a
                className="emberline-primary-tab"
                href={menuTarget(primaryTab.path, search)}
                aria-current={primaryActive ? 'page' : undefined}
                onClick={(event) => {
                  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                    return
                  event.preventDefault()
                  go(primaryTab.path)
                }}
              >
                {primaryTab.label}
              </a>
            </nav>
            <PopoverNext
              placement="bottom-end"
              content={
                <TopBarMenu entries={menuEntries} activePath={pathname} onNavigate={go} onLogout={signOut} />
              }
            >
              <Button variant="minimal" icon="more" aria-label={moreOptionsLabel} />
            </PopoverNext>
          </>
        )}
      </NavbarGroup>
      <Drawer
        isOpen={narrow && drawerOpen}
        position="right"
        size="280px"
        title={appConfig.brand.name}
        className="bp6-dark emberline-drawer"
        onClose={() => setDrawerOpen(false)}
      >
        <TopBarMenu entries={drawerEntries()} activePath={pathname} onNavigate={go} onLogout={signOut} />
      </Drawer>
    </Navbar>
  )
}
