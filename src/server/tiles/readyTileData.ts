import type { TileIndex } from './pickFeatures'
import type { TileData } from './tileData'

/** A dataset's tile data as the server holds it to cut tiles: the data and its spatial index. */
export interface ReadyTileData {
  data: TileData
  index: TileIndex | null
}
