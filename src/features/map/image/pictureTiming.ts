/** What the map's tile layers are doing at one look (see useMapImage). */
export interface TileLayerState {
  /** Tile layers on the map (base map and data layers). */
  readonly layers: number
  /** Of those, layers with visible tiles still loading. A tile that failed or came back empty (204) has finished. */
  readonly loading: number
  /** Layers waiting in the layer queue to be added to the map. */
  readonly queued: boolean
}

/** How often the map is looked at while waiting. */
export const LOOK_MS = 100
/**
 * How long the map must stay settled before its picture is taken: Leaflet prunes the tiles of the
 * previous zoom 250 ms after the new ones have loaded, so a picture taken sooner could show both.
 */
export const QUIET_MS = 300
/** Longest wait: a layer whose tiles never finish (a tile request that never answers) does not hold the picture forever. */
export const MAX_WAIT_MS = 10_000

export type PictureStep = 'wait' | 'take'

/**
 * Decides, look after look, when to take the map's picture: once at least one tile layer is on the
 * map, none is loading and none is queued, and that has held for QUIET_MS — or MAX_WAIT_MS after
 * the view changed, whatever the tiles are doing. Returns a function fed one look at a time.
 */
export function pictureTiming(start: number): (state: TileLayerState, now: number) => PictureStep {
  let settledSince: number | null = null
  return (state, now) => {
    if (now - start >= MAX_WAIT_MS) return 'take'
    const settled = state.layers > 0 && state.loading === 0 && !state.queued
    if (!settled) {
      settledSince = null
      return 'wait'
    }
    settledSince ??= now
    return now - settledSince >= QUIET_MS ? 'take' : 'wait'
  }
}
