import type { GridStorage } from '../store/AppStore'
import type { WindowSettings } from './forecastWindow'
import type { GridCatalog } from './gridCatalog'
import type { GridTiles } from './gridTiles'

/** Everything the grid routes share. */
export interface GridContext {
  catalog: GridCatalog
  store: GridStorage
  tiles: GridTiles
  window: WindowSettings
  hours: number
  now: () => Date
  currentHour(): number
  validTimes(): string[]
}
