import type { GeoJsonObject, GeoJsonProperties } from 'geojson'
import L, { type Map as LeafletMap } from 'leaflet'

/** [minLon, minLat, maxLon, maxLat] in degrees. */
export type Bbox = readonly [number, number, number, number]

/** How a highlight path is drawn (Leaflet path options the features may set). */
export interface HighlightStyle {
  readonly color: string
  readonly weight: number
  readonly opacity?: number
  readonly fill?: boolean
  readonly fillOpacity?: number
  /** CSS class of the drawn path (tests and styles find highlights by it). */
  readonly className?: string
}

/** A point feature's marker: a circle of `radius` pixels. */
export interface HighlightPointStyle extends HighlightStyle {
  readonly radius: number
}

/** Style of drawn GeoJSON, by each feature's properties. */
export interface GeoJsonHighlightStyle {
  readonly path: (properties: GeoJsonProperties) => HighlightStyle
  /** Points are drawn as circles in this style; without it Leaflet's default marker. */
  readonly point?: (properties: GeoJsonProperties) => HighlightPointStyle
  /**
   * Draw on a canvas rather than as SVG paths: the map's picture (useMapImage) takes canvases and
   * images only, so a printed map shows canvas highlights. SVG paths keep their `className`.
   */
  readonly canvas?: boolean
}

/** A text label on the map at [lon, lat]. */
export interface MapLabel {
  readonly lonLat: readonly [number, number]
  readonly text: string
  /** CSS class of the label (tests and styles find it by it). */
  readonly className?: string
}

export interface FitOptions {
  readonly padding: number
  readonly maxZoom: number
  /** Make the map measure its container first (a panel opening under the map may have resized it). */
  readonly measure?: boolean
}

/** Something drawn over the map until it is removed. */
export interface DrawnHighlight {
  addData(geojson: GeoJsonObject): void
  /** Fits the map to what is drawn, when it has a valid extent. */
  fit(options: FitOptions): void
  remove(): void
}

/** The map operations the operations and tables features use, without touching Leaflet. */
export interface MapHighlighter {
  fitBbox(bbox: Bbox, options: FitOptions): void
  /** Draws GeoJSON in the highlight pane, above the map's data. */
  drawGeoJson(geojson: GeoJsonObject | undefined, style: GeoJsonHighlightStyle): DrawnHighlight
  /** Outlines a bbox in the map's overlay pane: a rectangle, or a ring of `radius` for a point. */
  outlineBbox(bbox: Bbox, style: HighlightPointStyle): DrawnHighlight
  /** Text labels in the highlight pane (not part of the map picture: HTML, not canvas). */
  drawLabels(labels: readonly MapLabel[]): DrawnHighlight
  /**
   * Calls `onPick` with the [lon, lat] of the next click or tap on the map (a crosshair cursor
   * meanwhile), once; the returned function disarms it.
   */
  pickPoint(onPick: (lonLat: [number, number]) => void): () => void
  /**
   * Calls `onHold` with the [lon, lat] where a touch (or pen) is held still on the map for `holdMs`
   * (a long-press); until the returned function is called.
   */
  onLongPress(onHold: (lonLat: [number, number]) => void, holdMs?: number): () => void
}

/** How far a held finger may drift, in pixels, and still count as a long-press. */
const HOLD_SLOP_PX = 10

/** Pane above the map's vector and override panes (render/panes.ts tops out at 440), below popups. */
const HIGHLIGHT_PANE = 'el-ops-highlight'
const HIGHLIGHT_Z = '450'

function highlightPane(map: LeafletMap): string {
  if (!map.getPane(HIGHLIGHT_PANE)) {
    const pane = map.createPane(HIGHLIGHT_PANE)
    pane.style.zIndex = HIGHLIGHT_Z
    pane.style.pointerEvents = 'none'
  }
  return HIGHLIGHT_PANE
}

const corners = ([minLon, minLat, maxLon, maxLat]: Bbox): L.LatLngBoundsLiteral => [
  [minLat, minLon],
  [maxLat, maxLon],
]

function fitBounds(map: LeafletMap, bounds: L.LatLngBoundsExpression, options: FitOptions): void {
  if (options.measure) map.invalidateSize({ pan: false })
  map.fitBounds(bounds, { padding: [options.padding, options.padding], maxZoom: options.maxZoom })
}

function drawn(
  map: LeafletMap,
  layer: L.FeatureGroup | L.Path,
  bounds: () => L.LatLngBounds,
): DrawnHighlight {
  layer.addTo(map)
  return {
    addData: (geojson) => {
      if (layer instanceof L.GeoJSON) layer.addData(geojson)
    },
    fit: (options) => {
      const b = bounds()
      if (b.isValid()) fitBounds(map, b, options)
    },
    remove: () => {
      layer.remove()
    },
  }
}

function createHighlighter(map: LeafletMap): MapHighlighter {
  return {
    fitBbox: (bbox, options) => fitBounds(map, corners(bbox), options),
    drawGeoJson: (geojson, style) => {
      const pane = highlightPane(map)
      const point = style.point
      // One canvas for the whole highlight (a renderer per feature would stack a canvas per path).
      const renderer = style.canvas ? L.canvas({ pane }) : undefined
      const layer = L.geoJSON(geojson, {
        pane,
        interactive: false,
        style: (feature) => ({
          ...style.path(feature?.properties ?? null),
          ...(renderer ? { renderer } : {}),
        }),
        pointToLayer: point
          ? (feature, latlng) => L.circleMarker(latlng, { pane, ...point(feature.properties) })
          : undefined,
      })
      return drawn(map, layer, () => layer.getBounds())
    },
    outlineBbox: (bbox, style) => {
      const [minLon, minLat, maxLon, maxLat] = bbox
      const options = { ...style, interactive: false }
      const outline =
        minLon === maxLon && minLat === maxLat
          ? L.circleMarker([minLat, minLon], options)
          : L.rectangle(corners(bbox), options)
      return drawn(map, outline, () => L.latLngBounds(corners(bbox)))
    },
    drawLabels: (labels) => {
      const pane = highlightPane(map)
      const group = L.featureGroup(
        labels.map(({ lonLat: [lon, lat], text, className }) =>
          L.marker([lat, lon], {
            pane,
            interactive: false,
            keyboard: false,
            icon: L.divIcon({
              className: `el-map-label ${className ?? ''}`.trim(),
              html: '',
              iconSize: undefined,
            }),
          }).on('add', (e) => {
            const el = (e.target as L.Marker).getElement()
            if (el) el.textContent = text
          }),
        ),
      )
      return drawn(map, group, () => group.getBounds())
    },
    pickPoint: (onPick) => {
      const container = map.getContainer()
      container.classList.add('el-map-picking')
      const click = (e: L.LeafletMouseEvent) => {
        disarm()
        onPick([e.latlng.lng, e.latlng.lat])
      }
      const disarm = () => {
        container.classList.remove('el-map-picking')
        map.off('click', click)
      }
      map.on('click', click)
      return disarm
    },
    onLongPress: (onHold, holdMs = 600) => {
      const container = map.getContainer()
      let timer: ReturnType<typeof setTimeout> | undefined
      let start: { x: number; y: number; id: number } | null = null
      const cancel = () => {
        clearTimeout(timer)
        start = null
      }
      const down = (e: PointerEvent) => {
        if (e.pointerType === 'mouse' || !e.isPrimary) return cancel()
        start = { x: e.clientX, y: e.clientY, id: e.pointerId }
        clearTimeout(timer)
        timer = setTimeout(() => {
          if (!start) return
          const latlng = map.mouseEventToLatLng({ clientX: start.x, clientY: start.y } as MouseEvent)
          start = null
          onHold([latlng.lng, latlng.lat])
        }, holdMs)
      }
      const move = (e: PointerEvent) => {
        if (
          start &&
          e.pointerId === start.id &&
          Math.hypot(e.clientX - start.x, e.clientY - start.y) > HOLD_SLOP_PX
        )
          cancel()
      }
      container.addEventListener('pointerdown', down)
      container.addEventListener('pointermove', move)
      container.addEventListener('pointerup', cancel)
      container.addEventListener('pointercancel', cancel)
      map.on('movestart zoomstart', cancel)
      return () => {
        cancel()
        container.removeEventListener('pointerdown', down)
        container.removeEventListener('pointermove', move)
        container.removeEventListener('pointerup', cancel)
        container.removeEventListener('pointercancel', cancel)
        map.off('movestart zoomstart', cancel)
      }
    },
  }
}

const highlighters = new WeakMap<LeafletMap, MapHighlighter>()

/** The highlighter of a map: one per map, so callers may key their own state by it. */
export function mapHighlighter(map: LeafletMap): MapHighlighter {
  let h = highlighters.get(map)
  if (!h) {
    h = createHighlighter(map)
    highlighters.set(map, h)
  }
  return h
}
