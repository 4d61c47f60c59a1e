import { useEffect, useState } from 'react'

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly value: T }
  | { readonly state: 'failed'; readonly message: string }

/** Loads once on mount (aborted on unmount). */
export function useBriefingData<T>(load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' })
  useEffect(() => {
    const abort = new AbortController()
    load(abort.signal).then(
      (value) => !abort.signal.aborted && setResult({ state: 'ready', value }),
      (error: unknown) =>
        !abort.signal.aborted &&
        setResult({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    )
    return () => abort.abort()
  }, [load])
  return result
}
