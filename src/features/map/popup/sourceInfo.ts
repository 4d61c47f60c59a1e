import { sourceById, type MapLayer, type Popup } from '../../../shared/config'
import { formatDate } from '../../../shared/format'
import { popupContent, type PopupContent } from './popupContent'

/**
 * Raster source kinds whose server answers a point query (`/api/sources/<id>/info`); `png` is our
 * own grids (value, valid time, model run and source: src/server/grids/gridInfoRoutes.ts).
 */
const INFO_KINDS = new Set(['wms', 'arcgis-mapserver', 'cog', 'png'])

/** The answer of `/api/sources/<id>/info` (src/server/sources/featureInfo.ts). */
export interface SourceInfoAnswer {
  readonly source: string
  readonly features: readonly {
    readonly layer?: string
    readonly attributes: Readonly<Record<string, string | number | boolean | null>>
  }[]
}

/** The source id whose server is asked on a click on this map layer, or null (not a queryable raster). */
export function infoSourceOf(mapLayer: MapLayer): string | null {
  if (mapLayer.paint.type !== 'raster') return null
  const source = sourceById(mapLayer.source)
  return INFO_KINDS.has(source.type) ? source.id : null
}

/** The URL of a point query at lon/lat, clicked at map zoom z (whole zooms; the server bounds them). */
export function sourceInfoUrl(sourceId: string, lon: number, lat: number, z: number): string {
  const q = new URLSearchParams({
    lon: lon.toFixed(6),
    lat: Math.max(-85.05, Math.min(85.05, lat)).toFixed(6),
    z: String(Math.max(0, Math.min(22, Math.round(z)))),
  })
  return `/api/sources/${encodeURIComponent(sourceId)}/info?${q.toString()}`
}

/** An ISO 8601 UTC instant as servers send times (our grids' valid time and model run): shown in local time. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/

/** Rows shown when the YAML gives no popup: the first feature's attributes, at most this many. */
export const MAX_INFO_ROWS = 20

/**
 * The popup of a raster layer's point query: the YAML `popup` of the map layer applied to the first
 * feature's attributes when there is one, else the layer's name over the attributes as the server
 * named them. Null when the server found no feature there.
 */
export function sourceInfoContent(
  layerName: string,
  popup: Popup | undefined,
  answer: SourceInfoAnswer,
  now: number = Date.now(),
): PopupContent | null {
  const first = answer.features[0]
  if (!first) return null
  const props = first.attributes
  if (popup) return popupContent(popup, props, now)
  const rows = Object.entries(props)
    .slice(0, MAX_INFO_ROWS)
    .map(([label, v]) => ({
      label,
      value: v === null ? '' : ISO_INSTANT.test(String(v)) ? formatDate(v) : String(v),
    }))
  return { title: layerName, rows }
}
