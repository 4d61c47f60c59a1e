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
}

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
      const layer = L.geoJSON(geojson, {
        pane,
        interactive: false,
        style: (feature) => style.path(feature?.properties ?? null),
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
