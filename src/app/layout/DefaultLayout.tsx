import { Outlet } from 'react-router'
import { useNavigationVisibility } from './NavigationVisibility'
import { TopBar } from './TopBar'
import { useExpiringSoonNotice } from './useExpiringSoonNotice'

/** The default layout around every route that does not opt out (config routes.noLayout). */
export function DefaultLayout() {
  const { visible } = useNavigationVisibility()
  useExpiringSoonNotice()
  return (
    <div className="emberline-layout">
      {visible && <TopBar />}
      <main className="emberline-main">
        <Outlet />
      </main>
    </div>
  )
}
