import type { Map as LeafletMap } from 'leaflet'
import { useEffect, useMemo, useRef, type ReactNode } from 'react'
import { DockedPanel } from './DockedPanel'
import { useAfterMapDrawn } from './useAfterMapDrawn'
import { useDockLayout, type DockRequest } from './useDockLayout'
import { useElementHeight, useElementSize } from './useElementHeight'
import { useViewportHeight } from './useViewport'

export interface MapColumnProps {
  readonly map: LeafletMap | null
  /** The Leaflet map (or its loading spinner). */
  readonly mapView: ReactNode
  /** The route's panel beneath the map (forecast chart, operations view, briefing sheet). */
  readonly panel?: ReactNode
  readonly panelTitle: string
  /** `dock`: resizable and collapsible beneath the map; `flow`: in the page flow (the printable briefing). */
  readonly panelLayout: 'dock' | 'flow'
  /** The attribute-tables panel while a table is open, else null. */
  readonly tables: ReactNode | null
  /** Tools drawn over the map's top-right corner (e.g. the fire what-if tool). */
  readonly overlay?: ReactNode
}

/** Most the tables panel asks for when sized automatically: 45 % of the viewport. */
const TABLES_SHARE = 0.45

/**
 * The map with the panels docked beneath it: each can be collapsed and resized, and the map keeps
 * half the viewport height unless the user drags a panel taller. Leaflet is told when its box changes.
 */
export function MapColumn({ map, mapView, panel, panelTitle, panelLayout, tables, overlay }: MapColumnProps) {
  const columnRef = useRef<HTMLDivElement>(null)
  const holderRef = useRef<HTMLDivElement>(null)
  const columnHeight = useElementHeight(columnRef)
  const holderSize = useElementSize(holderRef)
  const viewportHeight = useViewportHeight()
  const docked = panelLayout === 'dock'
  const requests = useMemo<DockRequest[]>(
    () => [
      { id: 'el-route-panel', shown: docked && panel !== undefined, preferred: Number.POSITIVE_INFINITY },
      { id: 'el-tables-dock', shown: tables !== null, preferred: Math.round(viewportHeight * TABLES_SHARE) },
    ],
    [docked, panel, tables, viewportHeight],
  )
  const slots = useDockLayout(requests, columnHeight, viewportHeight)
  // the panel's content renders once the map's first tiles are drawn
  const panelReady = useAfterMapDrawn()
  const panelContent = panelReady ? panel : null

  // The map keeps its exact centre (the default view, a share URL's centre) when its box changes.
  useEffect(() => {
    if (!map) return
    const center = map.getCenter()
    map.invalidateSize({ pan: false })
    map.setView(center, map.getZoom(), { animate: false })
  }, [map, holderSize])

  const dock = (id: string, title: string, content: ReactNode) => {
    const slot = slots[id]
    if (!slot || columnHeight === 0) return null
    return (
      <DockedPanel id={id} title={title} viewportHeight={viewportHeight} {...slot}>
        {content}
      </DockedPanel>
    )
  }

  return (
    <div className="el-map-column" ref={columnRef}>
      <div className="el-map-holder" ref={holderRef}>
        {/* the map is created once the column is measured and the docked panels hold their place, so its
            first tiles are asked for at its final size (not for a taller map, then pruned) */}
        {columnHeight > 0 ? mapView : null}
        {overlay && map ? <div className="el-map-overlay">{overlay}</div> : null}
      </div>
      {panel !== undefined && !docked ? <div className="el-map-panel">{panelContent}</div> : null}
      {docked && panel !== undefined ? dock('el-route-panel', panelTitle, panelContent) : null}
      {tables !== null ? dock('el-tables-dock', 'Attribute tables', tables) : null}
    </div>
  )
}
