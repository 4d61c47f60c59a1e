import { useEffect, useMemo } from 'react'
import { useMap } from 'react-leaflet'
import { useHiddenLayerIds, useLayerState } from '../../layers'
import { layersConfig, mapLayerById } from '../../../shared/config'
import { useServiceTiles } from '../services/useServiceTiles'
import { drawList } from './drawList'
import { markMapDrawn } from './firstDraw'
import { mapClock } from './mapClock'
import { MapLayerView } from './MapLayerView'
import { ensurePanes } from './panes'
import type { PickRegistry } from './pickRegistry'

/** Draws every map layer the sidebar state makes visible, bottom first. */
export function ConfigLayers({ demo, registry }: { demo: boolean; registry: PickRegistry }) {
  const map = useMap()
  ensurePanes(map)
  const { state } = useLayerState()
  // A layer of a source switched off on the server is not drawn, even if a shared link names it.
  const hidden = useHiddenLayerIds()
  const items = useMemo(
    () =>
      drawList(
        state,
        layersConfig.layers.filter((l) => !hidden.has(l.id)),
      ),
    [state, hidden],
  )
  const now = useMemo(() => mapClock(demo), [demo])
  const serviceTiles = useServiceTiles(true)
  // No tile layer to wait for (every layer off, or only wind particles): the first view is drawn.
  const drawsTiles = items.some((item) => mapLayerById(item.mapLayerId).paint.type !== 'particles')
  useEffect(() => {
    if (!drawsTiles) markMapDrawn()
  }, [drawsTiles])
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
