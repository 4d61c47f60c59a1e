import { useEffect } from 'react'
import { layersConfig } from '../../../shared/config'
import { useLayerState } from '../../layers'

/** Sidebar layers (config/layers.yaml layers[]) one of whose map layers draws the dataset. */
export function layersOfDataset(datasetId: string): string[] {
  const sourceDataset = new Map(
    layersConfig.sources.map((s) => [s.id, 'dataset' in s ? (s.dataset as string | undefined) : undefined]),
  )
  const mapLayerDataset = new Map(layersConfig.mapLayers.map((m) => [m.id, sourceDataset.get(m.source)]))
  return layersConfig.layers
    .filter((l) => l.layers.some((id) => mapLayerDataset.get(id) === datasetId))
    .map((l) => l.id)
}

/** Switches on (once, on mount) the sidebar layers that draw the dataset, e.g. the PSPS layer group. */
export function useShowDatasetLayers(datasetId: string | undefined): void {
  const { dispatch } = useLayerState()
  useEffect(() => {
    if (!datasetId) return
    for (const layerId of layersOfDataset(datasetId)) dispatch({ type: 'setVisible', layerId, visible: true })
  }, [datasetId, dispatch])
}
