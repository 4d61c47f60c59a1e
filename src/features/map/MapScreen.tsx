import { Spinner } from '@blueprintjs/core'
import type { Map as LeafletMap } from 'leaflet'
import 'leaflet/dist/leaflet.css'
import { lazy, Suspense, useMemo, useReducer, useState, type ReactNode } from 'react'
import { appConfig, layersConfig } from '../../shared/config'
import { initialLayerState, LayerSidebar, LayerStateContext, layerReducer } from '../layers'
import { AttributeTablesProvider, useAttributeTables } from '../tables'
import { MapInstanceContext } from './mapContext'
import './mapScreen.css'
import { MapView } from './MapView'
import { mapClock } from './render/mapClock'
import { decodeSharedView } from './share/shareState'
import { useDemoFlag } from './useMapMeta'

export interface MapScreenProps {
  /** Extra content under the map (e.g. the forecast chart panel of /DailyWildfireRisk). */
  readonly panel?: ReactNode
}

const sidebarExcluded = (path: string) =>
  appConfig.routes.sidebarExcluded.some((p) => p.toLowerCase() === path.toLowerCase().replace(/\/$/, ''))

// The tables panel (TanStack Table, filters, CSV export) is fetched when the first table opens.
const AttributeTablesPanel = lazy(() =>
  import('../tables/AttributeTablesPanel').then((m) => ({ default: m.AttributeTablesPanel })),
)

/** The attribute-tables panel, loaded and mounted while at least one table is open. */
function TablesPanelWhenOpen({ now }: { readonly now: () => number }) {
  const { openTableIds } = useAttributeTables()
  if (openTableIds.length === 0) return null
  return (
    <Suspense fallback={<Spinner className="el-tables-loading" size={24} />}>
      <AttributeTablesPanel now={now} />
    </Suspense>
  )
}

/** The sidebar with its table buttons wired to the attribute-tables panel. */
function SidebarWithTables() {
  const { openTable } = useAttributeTables()
  return <LayerSidebar onOpenTable={openTable} />
}

/** The main map screen: layer sidebar, Leaflet map and the panel beneath it. */
export function MapScreen({ panel }: MapScreenProps) {
  const [shared] = useState(() => decodeSharedView(window.location.search))
  const [state, dispatch] = useReducer(layerReducer, shared, (seed) =>
    initialLayerState(layersConfig.layers, seed),
  )
  const [map, setMap] = useState<LeafletMap | null>(null)
  const demo = useDemoFlag()
  const showSidebar = !sidebarExcluded(window.location.pathname)
  const now = useMemo(() => mapClock(demo ?? appConfig.demo.enabled), [demo])
  return (
    <LayerStateContext.Provider value={{ state, dispatch }}>
      <MapInstanceContext.Provider value={map}>
        <AttributeTablesProvider>
          <div className="el-map-screen bp6-dark">
            {showSidebar ? <SidebarWithTables /> : null}
            <div className="el-map-column">
              <div className="el-map-holder">
                {demo === null ? (
                  <Spinner className="el-map-loading" />
                ) : (
                  <MapView demo={demo} shared={shared} onMap={setMap} />
                )}
              </div>
              {panel ? <div className="el-map-panel">{panel}</div> : null}
              <TablesPanelWhenOpen now={now} />
            </div>
          </div>
        </AttributeTablesProvider>
      </MapInstanceContext.Provider>
    </LayerStateContext.Provider>
  )
}
