/**
 * Resolves once the first data-layer tile of this page load is drawn and painted. Screens defer code that is
 * not needed for the first map view (the forecast chart's ApexCharts chunk) until then, so it does
 * not compete with the map for the network and the main thread.
 */
let markDrawn: () => void = () => undefined
const drawn = new Promise<void>((resolve) => {
  markDrawn = resolve
})

const nextFrame = (then: () => void) =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(then) : setTimeout(then, 16)

/** Called by the tile layers on their first loaded tile (idempotent); resolves once that frame is painted. */
let marked = false

export function markMapDrawn(): void {
  if (marked) return
  marked = true
  // the second animation frame after the tile starts after the frame showing it was painted
  nextFrame(() => nextFrame(markDrawn))
}

/** The first map tiles painted, or `fallbackMs` elapsed (no visible layer, tiles failing). */
export function whenMapDrawn(fallbackMs: number): Promise<void> {
  return Promise.race([drawn, new Promise<void>((resolve) => setTimeout(resolve, fallbackMs))])
}
