import { useEffect, useState } from 'react'
import { appConfig } from '../../shared/config'
import { todayKey } from '../../shared/risk'
import { serverMeta, settledServerMeta, type ServerMeta } from '../session'

/** The reference date to show as 'Today' when the server runs in demo mode (GET /api/meta). */
export function referenceDateOf(meta: ServerMeta | null): string | null {
  const demo = meta?.demo ?? appConfig.demo.enabled
  if (!demo) return null
  return meta?.referenceDate ?? appConfig.demo.referenceDate
}

/** The day (YYYY-MM-DD, Mountain time) labelled 'Today': the demo reference date, else today. */
export function useReferenceDay(): string {
  const [meta, setMeta] = useState<ServerMeta | null>(() => settledServerMeta() ?? null)
  useEffect(() => {
    let live = true
    void serverMeta().then((loaded) => {
      if (live) setMeta(loaded)
    })
    return () => {
      live = false
    }
  }, [])
  return todayKey(referenceDateOf(meta), appConfig.formatting.dayLabelTimeZone)
}
