import L from 'leaflet'
import { leafletLayer } from 'protomaps-leaflet'
import { useEffect } from 'react'
import { useMap } from 'react-leaflet'
import { appConfig, resolveColor } from '../../../shared/config'
import { whenMapDrawn } from '../render/firstDraw'
import { queueLayerAdd } from '../render/layerQueue'
import { ensurePanes, PANES } from '../render/panes'
import { basemapPlan, OFFLINE_ATTRIBUTION, type BasemapBase, type BasemapOverlay } from './basemapPlan'
import { basemapLabelRules, basemapOverlayPaintRules, basemapPaintRules } from './basemapStyle'

/** Highest zoom of the offline basemap's data tiles (the server's `places` reach z10). */
const OFFLINE_MAX_DATA_ZOOM = 10
/** Longest wait for the first data tiles before the names are drawn anyway (no data layer visible). */
const OVERLAY_WAIT_MS = 1500
/** Protomaps' own basemap flavour for PMTiles archives in its schema (dark theme only). */
const PMTILES_FLAVOR = 'dark'

type ProtomapsOptions = NonNullable<Parameters<typeof leafletLayer>[0]>
const protomaps = (options: ProtomapsOptions): L.Layer => leafletLayer(options) as unknown as L.Layer

/** Paint and label rules of the Protomaps flavour, read from a layer that is never added. */
function flavorRules(url: string) {
  const probe = leafletLayer({ url, flavor: PMTILES_FLAVOR, lang: 'en' })
  return { paintRules: probe.paintRules, labelRules: probe.labelRules, background: probe.backgroundColor }
}

function baseLayer(base: BasemapBase): L.Layer {
  switch (base.kind) {
    case 'offline':
      return protomaps({
        url: base.url,
        paintRules: basemapPaintRules(),
        labelRules: [],
        backgroundColor: resolveColor('basemapWater'),
        maxDataZoom: OFFLINE_MAX_DATA_ZOOM,
        attribution: base.attribution,
        className: 'el-basemap',
      })
    case 'xyz':
      return L.tileLayer(base.url, {
        attribution: base.attribution,
        className: 'el-basemap',
        ...(base.maxZoom !== undefined ? { maxNativeZoom: base.maxZoom } : {}),
        ...(base.subdomains ? { subdomains: [...base.subdomains] } : {}),
      })
    case 'pmtiles': {
      const rules = flavorRules(base.url)
      return protomaps({
        url: base.url,
        paintRules: rules.paintRules,
        labelRules: [],
        ...(rules.background ? { backgroundColor: rules.background } : {}),
        ...(base.maxZoom !== undefined ? { maxDataZoom: base.maxZoom } : {}),
        attribution: base.attribution,
        className: 'el-basemap',
      })
    }
  }
}

function overlayLayer(overlay: NonNullable<BasemapOverlay>): L.Layer {
  const common = { pane: PANES.labels, className: 'el-basemap-labels' }
  if (overlay.kind === 'offline')
    return protomaps({
      ...common,
      url: overlay.url,
      paintRules: basemapOverlayPaintRules(),
      labelRules: basemapLabelRules(),
      maxDataZoom: OFFLINE_MAX_DATA_ZOOM,
      attribution: OFFLINE_ATTRIBUTION,
    })
  return protomaps({
    ...common,
    url: overlay.url,
    paintRules: [],
    labelRules: flavorRules(overlay.url).labelRules,
    ...(overlay.maxZoom !== undefined ? { maxDataZoom: overlay.maxZoom } : {}),
    attribution: '',
  })
}

/**
 * The basemap of config/app.yaml `map.basemap` (offline vector tiles by default, or a deployment's
 * XYZ raster or PMTiles basemap) in Leaflet's tile pane beneath the data, and its place names (with
 * faint outlines) in the labels pane above every data layer, so rasters never hide them.
 */
export function BasemapLayer() {
  const map = useMap()
  useEffect(() => {
    ensurePanes(map)
    const plan = basemapPlan(appConfig.map.basemap)
    const base = baseLayer(plan.base)
    const cancelAdd = queueLayerAdd(() => base.addTo(map))
    // The names come once the first data tiles are drawn: they do not compete with the first view.
    let overlay: L.Layer | null = null
    let removed = false
    void whenMapDrawn(OVERLAY_WAIT_MS).then(() => {
      if (!removed && plan.overlay) overlay = overlayLayer(plan.overlay).addTo(map)
    })
    return () => {
      removed = true
      cancelAdd()
      base.remove()
      overlay?.remove()
    }
  }, [map])
  return null
}
