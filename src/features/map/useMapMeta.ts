import { useEffect, useState } from 'react'
import { serverMeta, settledServerMeta, type ServerMeta } from '../session'
import { appConfig } from '../../shared/config'

const demoOf = (meta: ServerMeta | null): boolean => meta?.demo ?? appConfig.demo.enabled

/** Demo flag from GET /api/meta (no auth, asked once at boot); config's demo default if the call fails. */
export function useDemoFlag(): boolean | null {
  const [demo, setDemo] = useState<boolean | null>(() => {
    const settled = settledServerMeta()
    return settled === undefined ? null : demoOf(settled)
  })
  useEffect(() => {
    let live = true
    void serverMeta().then((meta) => live && setDemo(demoOf(meta)))
    return () => {
      live = false
    }
  }, [])
  return demo
}
