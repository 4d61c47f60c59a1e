import { useEffect, useState } from 'react'
import type { MitigationApiError, MitigationRanking } from './mitigationApi'
import { fetchRanking, rankingUrl } from './fetchMitigation'
import { createRankingLoader } from './rankingLoader'

/** How long weight edits settle before the ranking is refetched. */
export const WEIGHT_DEBOUNCE_MS = 300

export interface RankingState {
  ranking: MitigationRanking | null
  /** The ranking shown is not yet the one for the weights asked for (a fetch is due or under way). */
  pending: boolean
  error: MitigationApiError | null
}

interface Loaded {
  url: string | null
  ranking: MitigationRanking | null
  error: { url: string; error: MitigationApiError } | null
}

/**
 * The server's ranking for `weights` (null: the config defaults). The first load is immediate;
 * later weight changes are debounced and a newer request aborts the older one.
 */
export function useMitigationRanking(weights: Readonly<Record<string, number>> | null): RankingState {
  const url = rankingUrl(weights)
  const [loaded, setLoaded] = useState<Loaded>({ url: null, ranking: null, error: null })
  const [loader] = useState(() =>
    createRankingLoader({
      load: fetchRanking,
      delayMs: WEIGHT_DEBOUNCE_MS,
      onResult: (u, ranking) => setLoaded({ url: u, ranking, error: null }),
      onError: (u, error) => setLoaded((s) => ({ ...s, error: { url: u, error } })),
    }),
  )

  useEffect(() => {
    loader.request(url)
    return () => loader.cancel()
  }, [loader, url])

  const error = loaded.error?.url === url ? loaded.error.error : null
  return { ranking: loaded.ranking, pending: loaded.url !== url && !error, error }
}
