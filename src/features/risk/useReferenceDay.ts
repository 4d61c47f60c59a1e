import { useEffect, useState } from 'react'
import { appConfig } from '../../generated/config'
import { todayKey } from '../../shared/risk'

interface Meta {
  readonly demo: boolean
  readonly referenceDate: string | null
}

let metaRequest: Promise<Meta | null> | null = null

function loadMeta(): Promise<Meta | null> {
  metaRequest ??= fetch('/api/meta')
    .then(async (response) => {
      if (!response.ok) return null
      const body = (await response.json()) as { demo?: unknown; referenceDate?: unknown }
      return {
        demo: body.demo === true,
        referenceDate: typeof body.referenceDate === 'string' ? body.referenceDate : null,
      }
    })
    .catch(() => null)
  return metaRequest
}

/** The reference date to show as 'Today' when the server runs in demo mode (GET /api/meta). */
export function referenceDateOf(meta: Meta | null): string | null {
  const demo = meta ? meta.demo : appConfig.demo.enabled
  if (!demo) return null
  return meta?.referenceDate ?? appConfig.demo.referenceDate
}

/** The day (YYYY-MM-DD, Mountain time) labelled 'Today': the demo reference date, else today. */
export function useReferenceDay(): string {
  const [meta, setMeta] = useState<Meta | null>(null)
  useEffect(() => {
    let live = true
    void loadMeta().then((loaded) => {
      if (live) setMeta(loaded)
    })
    return () => {
      live = false
    }
  }, [])
  return todayKey(referenceDateOf(meta), appConfig.formatting.dayLabelTimeZone)
}
