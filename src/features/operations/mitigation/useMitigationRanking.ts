import { useEffect, useRef, useState } from 'react'
import { MitigationApiError, type MitigationRanking } from './mitigationApi'
import { fetchRanking, rankingUrl } from './fetchMitigation'

/** How long weight edits settle before the ranking is refetched. */
export const WEIGHT_DEBOUNCE_MS = 300

export interface RankingState {
  ranking: MitigationRanking | null
  /** The weights `ranking` was computed with differ from the ones asked for (a fetch is due or under way). */
  pending: boolean
  error: MitigationApiError | null
}

/**
 * The server's ranking for `weights` (null: the config defaults). The first load is immediate;
 * later weight changes are debounced and a newer request aborts the older one.
 */
export function useMitigationRanking(weights: Readonly<Record<string, number>> | null): RankingState {
  const url = rankingUrl(weights)
  const [state, setState] = useState<{ url: string | null; ranking: MitigationRanking | null }>({
    url: null,
    ranking: null,
  })
  const [error, setError] = useState<{ url: string; error: MitigationApiError } | null>(null)
  const first = useRef(true)

  useEffect(() => {
    const controller = new AbortController()
    const delay = first.current ? 0 : WEIGHT_DEBOUNCE_MS
    first.current = false
    const timer = window.setTimeout(() => {
      setError(null)
      fetchRanking(url, controller.signal).then(
        (ranking) => setState({ url, ranking }),
        (e: unknown) => {
          if (controller.signal.aborted) return
          const err = e instanceof MitigationApiError ? e : new MitigationApiError(0, String(e), null)
          setError({ url, error: err })
        },
      )
    }, delay)
    return () => {
      window.clearTimeout(timer)
      controller.abort()
    }
  }, [url])

  const currentError = error?.url === url ? error.error : null
  return { ranking: state.ranking, pending: state.url !== url && !currentError, error: currentError }
}
