import type { BasemapSettings } from '../../../shared/config'

/** URL of the offline basemap tiles our server generates (src/server/basemap). */
export const BASEMAP_TILE_URL = '/api/basemap/{z}/{x}/{y}'
/** Credit of the offline basemap's data (us-atlas: US Census boundaries; places: the shipped CSV). */
export const OFFLINE_ATTRIBUTION = 'US Census (us-atlas)'

/** What is drawn beneath the data layers (Leaflet's tile pane). */
export type BasemapBase =
  | { readonly kind: 'offline'; readonly url: string; readonly attribution: string }
  | {
      readonly kind: 'xyz'
      readonly url: string
      readonly attribution: string
      readonly maxZoom: number | undefined
      readonly subdomains: readonly string[] | undefined
    }
  | {
      readonly kind: 'pmtiles'
      readonly url: string
      readonly attribution: string
      readonly maxZoom: number | undefined
    }

/** What is drawn above the data layers, in the labels pane: names (and outlines) of the basemap. */
export type BasemapOverlay =
  | { readonly kind: 'offline'; readonly url: string }
  | { readonly kind: 'pmtiles'; readonly url: string; readonly maxZoom: number | undefined }
  | null

export interface BasemapPlan {
  readonly base: BasemapBase
  readonly overlay: BasemapOverlay
}

/**
 * The layers a basemap setting (config/app.yaml map.basemap) becomes: the basemap beneath the data,
 * and its names above the data so rasters never hide where the operator is. validate-config has
 * checked that xyz and pmtiles carry a url and an attribution.
 */
export function basemapPlan(b: BasemapSettings): BasemapPlan {
  const offlineOverlay = { kind: 'offline', url: BASEMAP_TILE_URL } as const
  switch (b.type) {
    case 'offline':
      return {
        base: { kind: 'offline', url: BASEMAP_TILE_URL, attribution: OFFLINE_ATTRIBUTION },
        overlay: offlineOverlay,
      }
    case 'xyz':
      return {
        base: {
          kind: 'xyz',
          url: b.url ?? '',
          attribution: b.attribution ?? '',
          maxZoom: b.maxZoom,
          subdomains: b.subdomains,
        },
        overlay: b.placeLabels === false ? null : offlineOverlay,
      }
    case 'pmtiles':
      return {
        base: { kind: 'pmtiles', url: b.url ?? '', attribution: b.attribution ?? '', maxZoom: b.maxZoom },
        overlay: { kind: 'pmtiles', url: b.url ?? '', maxZoom: b.maxZoom },
      }
  }
}
