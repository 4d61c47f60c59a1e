export { AttributeTablesProvider } from './AttributeTablesProvider'
export type { AttributeTablesProviderProps } from './AttributeTablesProvider'
// AttributeTablesPanel is not exported here: MapScreen loads it lazily by its path (import('../tables/AttributeTablesPanel')),
// and a static re-export would put the panel, and through its zoom button the map's index, in the map screen's import graph
// (the MapScreen re-export cycle the production build warned about).
export type { AttributeTablesPanelProps } from './AttributeTablesPanel'
export { useAttributeTables } from './useAttributeTables'
export type { AttributeTablesApi } from './useAttributeTables'
export { attributeTablesMachine } from './attributeTablesMachine'
