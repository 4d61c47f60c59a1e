import { Tag } from '@blueprintjs/core'
import { useEffect, useState } from 'react'
import { appConfig } from '../../shared/config'
import { serverMeta, settledServerMeta } from '../../features/session'

/** A discreet 'Demo data' badge while the server runs on demo data (GET /api/meta). */
export function DemoBadge() {
  const [demo, setDemo] = useState(() => settledServerMeta()?.demo === true)
  useEffect(() => {
    let live = true
    void serverMeta().then((meta) => {
      if (live && meta?.demo === true) setDemo(true)
    })
    return () => {
      live = false
    }
  }, [])
  if (!demo) return null
  return (
    <Tag minimal round className="emberline-demo-badge" data-testid="demo-badge">
      {appConfig.demo.badge}
    </Tag>
  )
}
