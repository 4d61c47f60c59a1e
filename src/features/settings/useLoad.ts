import { useCallback, useEffect, useState } from 'react'

export type Load<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly value: T }
  | { readonly state: 'failed'; readonly message: string }

/** Runs `load` once on mount; `set` replaces the value after a save. */
export function useLoad<T>(load: () => Promise<T>): [Load<T>, (value: T) => void] {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' })
  useEffect(() => {
    let live = true
    load().then(
      (value) => live && setResult({ state: 'ready', value }),
      (error: unknown) =>
        live &&
        setResult({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    )
    return () => {
      live = false
    }
  }, [load])
  const set = useCallback((value: T) => setResult({ state: 'ready', value }), [])
  return [result, set]
}
