import type { FeatureCondition, MapLayer, Paint, Source } from '../../src/generated/types'
import type { CatalogueIndex } from './catalogueIndex'

const L = 'layers'
type At = (string | number)[]

/** The source kind each paint kind draws from. */
const PAINT_SOURCE: Record<Paint['type'], readonly Source['type'][]> = {
  line: ['mvt', 'arcgis-featureserver', 'ogc-features', 'geojson', 'tilejson', 'pmtiles'],
  fill: ['mvt', 'arcgis-featureserver', 'ogc-features', 'geojson', 'tilejson', 'pmtiles'],
  circle: ['mvt', 'arcgis-featureserver', 'ogc-features', 'geojson', 'tilejson', 'pmtiles'],
  icon: ['mvt', 'arcgis-featureserver', 'ogc-features', 'geojson'],
  raster: ['png', 'xyz', 'wms', 'wmts', 'arcgis-mapserver', 'pmtiles', 'cog'],
  particles: ['wind'],
}

/** Reports a field name that the map layer's dataset does not have. */
export function checkField(ix: CatalogueIndex, at: At, field: string, fields: Map<string, string> | undefined, sourceId: string): void {
  if (fields && !fields.has(field)) ix.ctx.report(L, at, `'${field}' is not a field of the dataset of source '${sourceId}'`)
}

export function checkCondition(ix: CatalogueIndex, at: At, cond: FeatureCondition, fields: Map<string, string> | undefined, sourceId: string): void {
  checkField(ix, [...at, 'field'], cond.field, fields, sourceId)
  const type = fields?.get(cond.field)
  if (type === 'number' && typeof cond.value !== 'number') ix.ctx.report(L, [...at, 'value'], `field '${cond.field}' is a number; compare it with a number`)
  if ((type === 'string' || type === 'date') && typeof cond.value !== 'string') ix.ctx.report(L, [...at, 'value'], `field '${cond.field}' is a ${type}; compare it with a string`)
}

function checkPaint(ix: CatalogueIndex, at: At, paint: Paint, source: Source | undefined, fields: Map<string, string> | undefined): void {
  const p = [...at, 'paint']
  const kinds = PAINT_SOURCE[paint.type]
  if (source && !kinds.includes(source.type)) {
    ix.ctx.report(L, [...p, 'type'], `paint '${paint.type}' needs a ${kinds.join(', ').replace(/, (?=[^,]*$)/, ' or ')} source, but '${source.id}' is ${source.type}`)
  }
  if (paint.type === 'fill' || paint.type === 'circle') {
    if (paint.color === undefined && paint.scale === undefined) ix.ctx.report(L, p, `a ${paint.type} paint needs 'color' or 'scale'`)
    if (paint.color !== undefined && paint.scale !== undefined) ix.ctx.report(L, [...p, 'scale'], `give 'color' or 'scale', not both`, true)
    if (paint.color !== undefined) ix.color(L, [...p, 'color'], paint.color)
    if (paint.scale !== undefined && ix.ctx.ref(L, [...p, 'scale'], paint.scale, ix.scales, 'scale')) {
      const scale = ix.scales.get(paint.scale)
      if (scale && source) checkField(ix, [...p, 'scale'], scale.field, fields, source.id)
    }
  }
  if (paint.type === 'line') ix.color(L, [...p, 'color'], paint.color)
  if (paint.type === 'fill') {
    paint.rules?.forEach((rule, k) => {
      ix.color(L, [...p, 'rules', k, 'color'], rule.color)
      if (source) checkCondition(ix, [...p, 'rules', k, 'when'], rule.when, fields, source.id)
    })
  }
}

function checkMapLayer(ix: CatalogueIndex, ml: MapLayer, i: number): void {
  const at: At = ['mapLayers', i]
  const known = ix.ctx.ref(L, [...at, 'source'], ml.source, ix.sources, 'source')
  const source = known ? ix.sources.get(ml.source) : undefined
  const fields = ix.sourceFields(ml.source)
  checkPaint(ix, at, ml.paint, source, fields)
  ix.ctx.ref(L, [...at, 'legend'], ml.legend, ix.legends, 'legend')
  if (ml.popup) {
    // Vector paints of another server's features (featureserver, ogc-features, geojson) pop up their attributes.
    const vector = ml.paint.type !== 'raster' && ml.paint.type !== 'particles'
    // WMS and ArcGIS MapServer layers pop up what GetFeatureInfo / identify answer.
    const queried = source?.type === 'wms' || source?.type === 'arcgis-mapserver'
    if (source && !vector && !queried && !('dataset' in source)) ix.ctx.report(L, [...at, 'popup'], `raster map layers have no features to pop up`, true)
    const title = ml.popup.title
    if (/^[a-z][a-z0-9_]*$/.test(title)) checkField(ix, [...at, 'popup', 'title'], title, fields, ml.source)
    ml.popup.fields.forEach((f, k) => {
      checkField(ix, [...at, 'popup', 'fields', k, 'key'], f.key, fields, ml.source)
      if (f.unitField !== undefined) checkField(ix, [...at, 'popup', 'fields', k, 'unitField'], f.unitField, fields, ml.source)
      if (f.formatter === 'valueUnit' && f.unitField === undefined) ix.ctx.report(L, [...at, 'popup', 'fields', k], `the valueUnit formatter needs 'unitField'`)
    })
  }
  if (ml.clickOverride) {
    const co = ml.clickOverride
    const c = [...at, 'clickOverride']
    ix.ctx.ref(L, [...c, 'whenVisible'], co.whenVisible, ix.mapLayers, 'map layer')
    if (ix.ctx.ref(L, [...c, 'show'], co.show, ix.mapLayers, 'map layer')) {
      const shown = ix.mapLayers.get(co.show)
      checkField(ix, [...c, 'matchField'], co.matchField, fields, ml.source)
      if (shown) checkField(ix, [...c, 'matchField'], co.matchField, ix.sourceFields(shown.source), shown.source)
    }
  }
}

/** Map layers: sources, paint kinds against source kinds, colours, scales, legends, popups. */
export function checkMapLayers(ix: CatalogueIndex): void {
  ix.layers.mapLayers.forEach((ml, i) => checkMapLayer(ix, ml, i))
}
