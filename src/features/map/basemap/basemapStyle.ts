import {
  CenteredTextSymbolizer,
  LineSymbolizer,
  PolygonSymbolizer,
  type LabelRule,
  type PaintRule,
} from 'protomaps-leaflet'
import { resolveColor } from '../../../shared/config'

/** Tile layer names the offline basemap server writes (src/server/basemap). */
export const BASEMAP_LAYERS = {
  states: 'states',
  counties: 'counties',
  countyLabels: 'county_labels',
  places: 'places',
} as const

/** County and state outlines (beneath the data, and again faintly above it in the labels pane). */
function boundaryRules(opacity: number): PaintRule[] {
  const boundary = resolveColor('basemapBoundary')
  return [
    {
      dataLayer: BASEMAP_LAYERS.counties,
      minzoom: 6,
      symbolizer: new LineSymbolizer({ color: boundary, width: 0.6, opacity: 0.7 * opacity }),
    },
    {
      dataLayer: BASEMAP_LAYERS.states,
      symbolizer: new LineSymbolizer({ color: boundary, width: 1.6, opacity }),
    },
  ]
}

/** Dark basemap paint: land, county and state outlines, from the theme's basemap colours. */
export function basemapPaintRules(): PaintRule[] {
  return [
    {
      dataLayer: BASEMAP_LAYERS.states,
      symbolizer: new PolygonSymbolizer({ fill: resolveColor('basemapLand'), opacity: 1 }),
    },
    ...boundaryRules(1),
  ]
}

/** The outlines drawn again above the data layers (with the names), faint enough not to compete with lines. */
export function basemapOverlayPaintRules(): PaintRule[] {
  return boundaryRules(0.6)
}

/** Place names (bigger places from lower zooms) and county names when zoomed in. */
export function basemapLabelRules(): LabelRule[] {
  const fill = resolveColor('basemapLabel')
  const stroke = resolveColor('basemapWater')
  const text = (font: string) =>
    new CenteredTextSymbolizer({ labelProps: ['name'], fill, stroke, width: 2.5, font })
  return [
    {
      dataLayer: BASEMAP_LAYERS.places,
      symbolizer: text('600 12px sans-serif'),
      filter: (z, f) => Number(f.props.population ?? 0) >= (z < 7 ? 50000 : z < 9 ? 5000 : 0),
      sort: (a, b) => Number(b.population ?? 0) - Number(a.population ?? 0),
    },
    { dataLayer: BASEMAP_LAYERS.countyLabels, minzoom: 8, symbolizer: text('italic 11px sans-serif') },
  ]
}
