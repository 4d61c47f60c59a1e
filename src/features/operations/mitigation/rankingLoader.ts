import { MitigationApiError, type MitigationRanking } from './mitigationApi'

export interface RankingLoaderOptions {
  load: (url: string, signal: AbortSignal) => Promise<MitigationRanking>
  /** Quiet time before a request once a ranking has been shown (weight edits settle first). */
  delayMs: number
  onResult: (url: string, ranking: MitigationRanking) => void
  onError: (url: string, error: MitigationApiError) => void
}

export interface RankingLoader {
  /** Loads `url`: at once until a first ranking arrives, then after `delayMs`; replaces any earlier request. */
  request(url: string): void
  /** Drops the pending or running request (no callback follows). */
  cancel(): void
}

/** The debounced, latest-wins loading of rankings behind useMitigationRanking. */
export function createRankingLoader(opts: RankingLoaderOptions): RankingLoader {
  let timer: ReturnType<typeof setTimeout> | null = null
  let controller: AbortController | null = null
  let loaded = false

  function cancel(): void {
    if (timer !== null) clearTimeout(timer)
    timer = null
    controller?.abort()
    controller = null
  }

  function run(url: string): void {
    timer = null
    const current = new AbortController()
    controller = current
    opts.load(url, current.signal).then(
      (ranking) => {
        if (current.signal.aborted) return
        loaded = true
        opts.onResult(url, ranking)
      },
      (e: unknown) => {
        if (current.signal.aborted) return
        opts.onError(url, e instanceof MitigationApiError ? e : new MitigationApiError(0, String(e), null))
      },
    )
  }

  return {
    request(url) {
      cancel()
      if (loaded) timer = setTimeout(() => run(url), opts.delayMs)
      else run(url)
    },
    cancel,
  }
}
