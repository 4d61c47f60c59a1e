import { startTransition, useEffect, useState } from 'react'

/**
 * False on the first render, true one task after it was committed, rendered as a transition (React
 * yields to the tile layers' tasks while it renders): a part of the screen shown this way (the layer
 * sidebar, the panels beneath the map) does not delay the map's first tiles, asked for in that commit.
 */
export function useAfterFirstCommit(): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    const id = setTimeout(() => startTransition(() => setReady(true)), 0)
    return () => clearTimeout(id)
  }, [])
  return ready
}
