// The compiled config the briefing reads (src/shared/config lookups), in one place.
import { layersConfig } from '../../generated/config'
import type { LayerDefinition } from '../../generated/types'

export { getGrid, getLegend, getMapLayer, getSource, getDataset } from '../../shared/config'

export const layersConfigLayers = (): readonly LayerDefinition[] => layersConfig.layers
