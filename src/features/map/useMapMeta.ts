import { useEffect, useState } from 'react'
import { appConfig } from '../../generated/config'

/** Demo flag from GET /api/meta (no auth); config's demo default if the call fails. */
export function useDemoFlag(): boolean | null {
  const [demo, setDemo] = useState<boolean | null>(null)
  useEffect(() => {
    let live = true
    fetch('/api/meta')
      .then((r) =>
        r.ok ? (r.json() as Promise<{ demo?: unknown }>) : Promise.reject(new Error(`meta ${r.status}`)),
      )
      .then((meta) => live && setDemo(typeof meta.demo === 'boolean' ? meta.demo : appConfig.demo.enabled))
      .catch((error: unknown) => {
        console.warn('GET /api/meta failed; using the configured demo default', error)
        if (live) setDemo(appConfig.demo.enabled)
      })
    return () => {
      live = false
    }
  }, [])
  return demo
}
