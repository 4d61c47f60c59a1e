import { useMemo } from 'react'
import { useMap } from 'react-leaflet'
import { useLayerState } from '../../layers'
import { layersConfig } from '../../../shared/config'
import { useServiceTiles } from '../services/useServiceTiles'
import { drawList } from './drawList'
import { mapClock } from './mapClock'
import { MapLayerView } from './MapLayerView'
import { ensurePanes } from './panes'
import type { PickRegistry } from './pickRegistry'

/** Draws every map layer the sidebar state makes visible, bottom first. */
export function ConfigLayers({ demo, registry }: { demo: boolean; registry: PickRegistry }) {
  const map = useMap()
  ensurePanes(map)
  const { state } = useLayerState()
  const items = useMemo(() => drawList(state, layersConfig.layers), [state])
  const now = useMemo(() => mapClock(demo), [demo])
  const serviceTiles = useServiceTiles(true)
  return (
    <>
      {items.map((item, order) => (
        <MapLayerView
          key={item.key}
          item={item}
          order={order}
          demo={demo}
          now={now}
          registry={registry}
          serviceTiles={serviceTiles}
          forecastHour={state.forecastHour}
        />
      ))}
    </>
  )
}
