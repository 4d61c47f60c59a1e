import { Tag } from '@blueprintjs/core'
import { useEffect, useState } from 'react'
import { appConfig } from '../../generated/config'

/** A discreet 'Demo data' badge while the server runs on demo data (GET /api/meta). */
export function DemoBadge() {
  const [demo, setDemo] = useState(false)
  useEffect(() => {
    let live = true
    fetch('/api/meta')
      .then((response) => (response.ok ? (response.json() as Promise<{ demo?: unknown }>) : null))
      .then((meta) => {
        if (live && meta?.demo === true) setDemo(true)
      })
      .catch((error: unknown) => console.warn('GET /api/meta failed', error))
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
