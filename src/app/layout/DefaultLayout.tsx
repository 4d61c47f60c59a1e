import { Outlet } from 'react-router'
import { useNavigationVisibility } from './NavigationVisibility'
import { TopBar } from './TopBar'

/** The default layout around every route that does not opt out (config routes.noLayout). */
export function DefaultLayout() {
  const { visible } = useNavigationVisibility()
  return (
    <div className="emberline-layout">
      {visible && <TopBar />}
      <main className="emberline-main">
        <Outlet />
      </main>
    </div>
  )
}
