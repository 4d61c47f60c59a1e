// Pure helpers over the compiled config (src/generated/config.ts); no React, Leaflet or Fastify.
export { colorValue, isHexColor, lookupThemeColor } from './themeColors'
export { resolveColor } from './resolveColor'
export {
  buildLookups,
  defaultListLayers,
  demoByDefault,
  getCategory,
  getDataset,
  getGrid,
  getLayer,
  getLegend,
  getMapLayer,
  getScale,
  getSource,
  getTable,
  lookups,
  mapLayerDataset,
  sourceDataset,
  type CatalogueLookups,
} from './catalogueLookups'
export { columnId, tableForLayer } from './tableColumns'
export { recordsUrl, sourcePath, tableRecordsUrl, tileUrl, tileUrlTemplate } from './tileUrls'
