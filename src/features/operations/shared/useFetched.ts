import { useEffect, useState } from 'react'

export type Loadable<T> =
  | { status: 'loading'; data: T | null }
  | { status: 'ready'; data: T }
  | { status: 'error'; data: T | null; message: string }

interface Answer<T> {
  key: string | null
  data: T | null
  error: string | null
}

/**
 * Loads `load(signal)` whenever `key` changes; keeps the previous data while the next loads (so
 * lists do not flash) and drops answers of superseded requests. `key` null = nothing to load.
 */
export function useFetched<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Loadable<T> {
  const [answer, setAnswer] = useState<Answer<T>>({ key: null, data: null, error: null })
  useEffect(() => {
    if (key === null) return
    const abort = new AbortController()
    load(abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setAnswer({ key, data, error: null })
      },
      (error: Error) => {
        if (!abort.signal.aborted) setAnswer((a) => ({ key, data: a.data, error: error.message }))
      },
    )
    return () => abort.abort()
    // `load` is read for the current key only: callers build it inline from the same inputs as `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])
  if (key === null || answer.key !== key) return { status: 'loading', data: answer.data }
  if (answer.error !== null) return { status: 'error', data: answer.data, message: answer.error }
  return answer.data === null ? { status: 'loading', data: null } : { status: 'ready', data: answer.data }
}
