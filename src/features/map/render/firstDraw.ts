/**
 * Resolves once the first data-layer tile of this page load is drawn. Screens defer code that is
 * not needed for the first map view (the forecast chart's ApexCharts chunk) until then, so it does
 * not compete with the map for the network and the main thread.
 */
let markDrawn: () => void = () => undefined
const drawn = new Promise<void>((resolve) => {
  markDrawn = resolve
})

/** Called by the tile layers on their first loaded tile (idempotent). */
export function markMapDrawn(): void {
  markDrawn()
}

/** The first map tiles drawn, or `fallbackMs` elapsed (no visible layer, tiles failing). */
export function whenMapDrawn(fallbackMs: number): Promise<void> {
  return Promise.race([drawn, new Promise<void>((resolve) => setTimeout(resolve, fallbackMs))])
}
