/** The parts of a Leaflet tile layer the retry uses (L.TileLayer has them). */
export interface RetryableTileLayer {
  on(type: 'tileerror', fn: (e: { tile: HTMLElement; coords: unknown }) => void): unknown
  getTileUrl(coords: never): string
}

/** Waits before each new request of a failed tile: 2 s, then 8 s; then it stays failed. */
export const TILE_RETRY_DELAYS_MS = [2_000, 8_000] as const

/**
 * Asks a failed tile of another server's layer again after a pause (a slow or briefly overloaded
 * upstream answers 504/502 for some tiles while the source as a whole is fine, so its status never
 * goes unavailable → ok and useRedrawOnRecovery never redraws them). A tile gets at most
 * `delays.length` new requests; a tile Leaflet has since removed (panned away) is left alone. Leaflet
 * treats the new load as the tile's: `tileload` fires and it is shown.
 */
export function retryFailedTiles(
  layer: RetryableTileLayer,
  delays: readonly number[] = TILE_RETRY_DELAYS_MS,
  schedule: (fn: () => void, ms: number) => unknown = setTimeout,
): void {
  const tries = new WeakMap<HTMLElement, number>()
  layer.on('tileerror', ({ tile, coords }) => {
    const n = tries.get(tile) ?? 0
    const delay = delays[n]
    if (delay === undefined) return
    tries.set(tile, n + 1)
    schedule(() => {
      if (!tile.isConnected) return
      ;(tile as HTMLImageElement).src = layer.getTileUrl(coords as never)
    }, delay)
  })
}
