import { Spinner } from '@blueprintjs/core'
import type { Map as LeafletMap } from 'leaflet'
import 'leaflet/dist/leaflet.css'
import { useMemo, useReducer, useState, type ReactNode } from 'react'
import { appConfig, layersConfig } from '../../shared/config'
import { initialLayerState, LayerAnnouncer, LayerSidebar, LayerStateContext, layerReducer } from '../layers'
import { AttributeTablesProvider, useAttributeTables } from '../tables'
import { LayersDrawer } from './layout/LayersDrawer'
import { MapColumn, type MapColumnProps } from './layout/MapColumn'
import { useAfterMapDrawn } from './layout/useAfterMapDrawn'
import { useNarrowScreen } from './layout/useViewport'
import { lazyPart } from './lazy/LazyPart'
import { MapInstanceContext } from './mapContext'
import './mapScreen.css'
import { MapView } from './MapView'
import { mapClock } from './render/mapClock'
import { decodeSharedView } from './share/shareState'
import { useDemoFlag } from './useMapMeta'

export interface MapScreenProps {
  /** Extra content under the map (e.g. the forecast chart panel of /DailyWildfireRisk). */
  readonly panel?: ReactNode
  /** Names the panel, its resize handle and its collapse button. */
  readonly panelTitle?: string
  /**
   * `dock` (default): the panel is docked beneath the map, collapsible and resizable, and the map keeps
   * half the viewport; `flow`: the panel follows the map in the page (the printable briefing).
   */
  readonly panelLayout?: 'dock' | 'flow'
  /** Tools over the map's top-right corner, inside the map's context (useMapHighlighter works there). */
  readonly overlay?: ReactNode
}

const sidebarExcluded = (path: string) =>
  appConfig.routes.sidebarExcluded.some((p) => p.toLowerCase() === path.toLowerCase().replace(/\/$/, ''))

// The tables panel (TanStack Table, filters, CSV export) is fetched when the first table opens; if
// its chunk fails, the panel says so with a Retry and the map keeps working (LazyPart).
const AttributeTablesPanel = lazyPart('The attribute tables', () =>
  import('../tables/AttributeTablesPanel').then((m) => m.AttributeTablesPanel),
)

/** The map column with the attribute-tables panel docked while at least one table is open. */
function ColumnWithTables(props: Omit<MapColumnProps, 'tables'> & { readonly now: () => number }) {
  const { openTableIds } = useAttributeTables()
  const { now, ...column } = props
  const tables =
    openTableIds.length === 0 ? null : (
      <AttributeTablesPanel now={now} fallback={<Spinner className="el-tables-loading" size={24} />} />
    )
  return <MapColumn {...column} tables={tables} />
}

/** The sidebar with its table buttons wired to the attribute-tables panel (and a callback after opening one). */
function SidebarWithTables({ onOpened }: { readonly onOpened?: () => void }) {
  const { openTable } = useAttributeTables()
  return (
    <LayerSidebar
      onOpenTable={(id) => {
        openTable(id)
        onOpened?.()
      }}
    />
  )
}

/** The main map screen: layer sidebar, Leaflet map and the panel beneath it. */
export function MapScreen({ panel, panelTitle = 'Details', panelLayout = 'dock', overlay }: MapScreenProps) {
  const [shared] = useState(() => decodeSharedView(window.location.search))
  const [state, dispatch] = useReducer(layerReducer, shared, (seed) =>
    initialLayerState(layersConfig.layers, seed),
  )
  const [map, setMap] = useState<LeafletMap | null>(null)
  const demo = useDemoFlag()
  // the sidebar renders once the map's first tiles are drawn, so they are asked for and drawn first; until then
  // an empty box of its width keeps the map's size (and so its centre) from changing
  const sidebarReady = useAfterMapDrawn()
  const showSidebar = !sidebarExcluded(window.location.pathname)
  const narrow = useNarrowScreen()
  const [drawerOpen, setDrawerOpen] = useState(false)
  const now = useMemo(() => mapClock(demo ?? appConfig.demo.enabled), [demo])
  // one context value per layer state: a screen re-render alone (the map arriving) re-renders no consumer
  const layerContext = useMemo(() => ({ state, dispatch }), [state])
  const mapView =
    demo === null ? (
      <Spinner className="el-map-loading" />
    ) : (
      <MapView demo={demo} shared={shared} onMap={setMap} />
    )
  return (
    <LayerStateContext.Provider value={layerContext}>
      <MapInstanceContext.Provider value={map}>
        <AttributeTablesProvider>
          <div className={`el-map-screen bp6-dark${narrow ? ' el-map-screen-narrow' : ''}`}>
            <LayerAnnouncer layers={layersConfig.layers} />
            {showSidebar && !narrow ? (
              sidebarReady ? (
                <SidebarWithTables />
              ) : (
                <div className="el-sidebar-placeholder" aria-hidden="true" />
              )
            ) : null}
            {showSidebar && narrow ? (
              <LayersDrawer
                open={drawerOpen}
                onOpen={() => setDrawerOpen(true)}
                onClose={() => setDrawerOpen(false)}
              >
                <SidebarWithTables onOpened={() => setDrawerOpen(false)} />
              </LayersDrawer>
            ) : null}
            <ColumnWithTables
              map={map}
              mapView={mapView}
              panel={panel}
              panelTitle={panelTitle}
              panelLayout={panelLayout}
              now={now}
              overlay={overlay}
            />
          </div>
        </AttributeTablesProvider>
      </MapInstanceContext.Provider>
    </LayerStateContext.Provider>
  )
}
