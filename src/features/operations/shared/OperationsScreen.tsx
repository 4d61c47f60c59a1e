import { Button, ButtonGroup } from '@blueprintjs/core'
import type { ReactNode } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { BriefingLink } from '../../briefing'
import { MapScreen } from '../../map'
import { operationsViews } from './operationsViews'
import './operations.css'

/** Switches between the four operations views (keeps the map's share parameters out of it). */
function OperationsNav() {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  return (
    <nav className="el-ops-nav" aria-label="Operations views">
      <ButtonGroup variant="minimal">
        {operationsViews(pathname).map((v) => (
          <Button
            key={v.path}
            text={v.title}
            active={v.current}
            aria-current={v.current ? 'page' : undefined}
            onClick={() => void navigate(v.path)}
          />
        ))}
      </ButtonGroup>
      <BriefingLink />
    </nav>
  )
}

/** An operations route: the map screen with the view switcher and the route's panel beneath the map. */
export function OperationsScreen({ children }: { children: ReactNode }) {
  return (
    <MapScreen
      panelTitle="Operations"
      panel={
        <>
          <OperationsNav />
          {children}
        </>
      }
    />
  )
}
