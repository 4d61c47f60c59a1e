// The core's one reader of the compiled config (src/generated): every other folder imports config
// data, its generated types and the typed lookups from here. No React, Leaflet or Fastify.
export {
  appConfig,
  feedsConfig,
  fireConfig,
  fuelModelsConfig,
  layersConfig,
  operationsConfig,
  tablesConfig,
  themeConfig,
} from '../../generated/config'
export type * from '../../generated/types'
export { gridById, layerById, legendById, mapLayerById, scaleById, sourceById, sourceOfType } from './catalogue'
export { envGatedLayerIds, envGatedSourceIds } from './envGated'
export { resolveColor } from './resolveColor'
export { screenTitle } from './screenTitle'
