// Shared pieces of the operations views (PSPS, Planning Mode, Mitigation Analysis).
export { SortableTable, nextSort } from './SortableTable'
export type { SortableColumn, SortableTableProps, SortState } from './SortableTable'
export { downloadText } from './downloadText'
export { useShowDatasetLayers, layersOfDataset } from './useShowDatasetLayers'
export { useFetched } from './useFetched'
export type { Loadable } from './useFetched'
export { useFeatureGeometry } from './useFeatureGeometry'
