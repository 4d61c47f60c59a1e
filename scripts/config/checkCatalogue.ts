import type { ArcgisFeatureServerSource, ArcgisMapServerSource, GeojsonSource, OgcFeaturesSource, WmsSource, WmtsSource, XyzSource } from '../../src/generated/types'

type FeatureSourceKinds = ArcgisFeatureServerSource | OgcFeaturesSource | GeojsonSource
import type { CogSource, PmtilesSource, TilejsonSource } from '../../src/generated/types'
import type { CatalogueIndex } from './catalogueIndex'

const L = 'layers'

function checkScales(ix: CatalogueIndex): void {
  ix.layers.scales.forEach((scale, i) => {
    const bound = scale.kind === 'ageHours' ? 'max' : 'min'
    const wrong = scale.kind === 'ageHours' ? 'min' : 'max'
    let previous: number | undefined
    scale.steps.forEach((step, j) => {
      const at = ['scales', i, 'steps', j]
      ix.color(L, [...at, 'color'], step.color)
      if (step[wrong] !== undefined) ix.ctx.report(L, [...at, wrong], `a ${scale.kind} scale bounds its steps with '${bound}', not '${wrong}'`, true)
      const value = step[bound]
      const last = j === scale.steps.length - 1
      if (last && value !== undefined) ix.ctx.report(L, [...at, bound], `the last step catches everything else and must not have '${bound}'`, true)
      if (!last && value === undefined) ix.ctx.report(L, at, `step needs '${bound}' (only the last step may omit it)`)
      if (value !== undefined && previous !== undefined) {
        const ordered = scale.kind === 'ageHours' ? value > previous : value < previous
        if (!ordered) ix.ctx.report(L, [...at, bound], `steps must be strictly ${scale.kind === 'ageHours' ? 'ascending' : 'descending'} by '${bound}' (${value} after ${previous})`)
      }
      if (value !== undefined) previous = value
    })
  })
}

function checkAscending(ix: CatalogueIndex, values: number[], at: (j: number) => (string | number)[], what: string): void {
  values.forEach((v, j) => {
    const prev = values[j - 1]
    if (j > 0 && prev !== undefined && !(v > prev)) ix.ctx.report(L, at(j), `${what} must be strictly ascending (${v} after ${prev})`)
  })
}

function checkLegends(ix: CatalogueIndex): void {
  ix.layers.legends.forEach((legend, i) => {
    const at = ['legends', i]
    switch (legend.type) {
      case 'gradient':
        legend.stops.forEach((s, j) => ix.color(L, [...at, 'stops', j, 'color'], s.color))
        checkAscending(ix, legend.stops.map((s) => s.value), (j) => [...at, 'stops', j, 'value'], 'stop values')
        break
      case 'classes':
        legend.classes.forEach((c, j) => ix.color(L, [...at, 'classes', j, 'color'], c.color))
        checkAscending(ix, legend.classes.map((c) => c.value), (j) => [...at, 'classes', j, 'value'], 'class values')
        break
      case 'line':
      case 'fill':
      case 'circle':
        legend.items.forEach((item, j) => ix.color(L, [...at, 'items', j, 'color'], item.color))
        break
      case 'icons':
        legend.items.forEach((item, j) => {
          ix.color(L, [...at, 'items', j, 'color'], item.color)
          ix.ctx.ref(L, [...at, 'items', j, 'icon'], item.icon, ix.icons, 'icon', 'declare it under icons.types')
        })
        break
      case 'scale':
        ix.ctx.ref(L, [...at, 'scale'], legend.scale, ix.scales, 'scale')
        break
      default:
        legend satisfies never
    }
  })
}

function checkIcons(ix: CatalogueIndex): void {
  const { icons } = ix.layers
  ix.color(L, ['icons', 'unknown', 'color'], icons.unknown.color)
  const seen = new Set<string>()
  icons.types.forEach((t, i) => {
    ix.color(L, ['icons', 'types', i, 'color'], t.color)
    if (seen.has(t.type)) ix.ctx.report(L, ['icons', 'types', i, 'type'], `duplicate icon type '${t.type}'`)
    seen.add(t.type)
  })
}

function checkDatasetsAndGrids(ix: CatalogueIndex): void {
  ix.layers.datasets.forEach((ds, i) => {
    const names = new Set<string>()
    ds.fields.forEach((f, j) => {
      if (names.has(f.name)) ix.ctx.report(L, ['datasets', i, 'fields', j, 'name'], `duplicate field '${f.name}' in dataset '${ds.id}'`)
      names.add(f.name)
    })
    if (ds.key !== undefined && !names.has(ds.key)) ix.ctx.report(L, ['datasets', i, 'key'], `key '${ds.key}' is not a field of dataset '${ds.id}'`)
  })
  ix.layers.grids.forEach((grid, i) => {
    const legend = ix.legends.get(grid.legend)
    if (!ix.ctx.ref(L, ['grids', i, 'legend'], grid.legend, ix.legends, 'legend')) return
    if (legend && legend.type !== 'gradient' && legend.type !== 'classes') {
      ix.ctx.report(L, ['grids', i, 'legend'], `grid legend '${grid.legend}' is of type ${legend.type}; a grid needs a gradient or classes legend`)
    }
  })
}

function checkSources(ix: CatalogueIndex): void {
  const paths = new Map<string, string>()
  ix.layers.sources.forEach((src, i) => {
    const at = ['sources', i]
    if ('minzoom' in src && src.minzoom > src.maxzoom) {
      ix.ctx.report(L, [...at, 'minzoom'], `minzoom ${src.minzoom} is above maxzoom ${src.maxzoom}`)
    }
    if (src.type === 'xyz' || src.type === 'wms' || src.type === 'wmts' || src.type === 'arcgis-mapserver') return checkExternalSource(ix, src, at)
    if (src.type === 'arcgis-featureserver' || src.type === 'ogc-features' || src.type === 'geojson') return checkExternalSource(ix, src, at)
    if (src.type === 'tilejson' || src.type === 'pmtiles' || src.type === 'cog') return checkArchiveSource(ix, src, at)
    const key = `${src.type}:${src.path}`
    const other = paths.get(key)
    if (other !== undefined) ix.ctx.report(L, [...at, 'path'], `path '${src.path}' is already used by ${src.type} source '${other}'`)
    else paths.set(key, src.id)
    if (src.type === 'png') ix.ctx.ref(L, [...at, 'grid'], src.grid, ix.grids, 'grid')
    else ix.ctx.ref(L, [...at, 'dataset'], src.dataset, ix.datasets, 'dataset')
  })
}

/** tilejson, pmtiles, cog: placeholders well formed; a pmtiles has exactly one of url and file; a cog's legend colours values. */
function checkArchiveSource(ix: CatalogueIndex, src: TilejsonSource | PmtilesSource | CogSource, at: (string | number)[]): void {
  const texts: [(string | number)[], string][] = src.url === undefined ? [] : [[[...at, 'url'], src.url]]
  for (const [k, v] of Object.entries(src.headers ?? {})) texts.push([[...at, 'headers', k], v])
  for (const [k, v] of Object.entries(src.query ?? {})) texts.push([[...at, 'query', k], v])
  for (const [where, text] of texts) {
    const stray = text.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/g, '')
    if (stray.includes('${')) ix.ctx.report(L, where, `'\${' must start a placeholder \${NAME} (letters, digits, _)`)
  }
  if (src.type === 'pmtiles' && (src.url === undefined) === (src.file === undefined)) {
    ix.ctx.report(L, at, `a pmtiles source needs exactly one of 'url' and 'file'`)
  }
  if (src.type === 'cog' && ix.ctx.ref(L, [...at, 'legend'], src.legend, ix.legends, 'legend')) {
    const legend = ix.legends.get(src.legend)
    if (legend && legend.type !== 'gradient' && legend.type !== 'classes') {
      ix.ctx.report(L, [...at, 'legend'], `cog legend '${src.legend}' is of type ${legend.type}; a cog needs a gradient or classes legend`)
    }
  }
}

const RESERVED_WMS = new Set(['service', 'request', 'version', 'layers', 'styles', 'format', 'transparent', 'crs', 'srs', 'bbox', 'width', 'height'])

/** Another server's source (xyz, wms): env placeholders well formed, no GetMap parameter given twice. */
function checkExternalSource(ix: CatalogueIndex, src: XyzSource | WmsSource | WmtsSource | ArcgisMapServerSource | FeatureSourceKinds, at: (string | number)[]): void {
  const texts: [(string | number)[], string][] = [[[...at, 'url'], src.url]]
  if (src.type === 'arcgis-mapserver' || src.type === 'arcgis-featureserver') {
    if (src.token !== undefined) texts.push([[...at, 'token'], src.token])
    for (const k of ['url', 'username', 'password'] as const) if (src.tokenExchange) texts.push([[...at, 'tokenExchange', k], src.tokenExchange[k]])
    if (src.token !== undefined && src.tokenExchange) ix.ctx.report(L, [...at, 'token'], `give either 'token' or 'tokenExchange', not both`)
  }
  for (const [k, v] of Object.entries(src.headers ?? {})) texts.push([[...at, 'headers', k], v])
  for (const [k, v] of Object.entries(src.query ?? {})) texts.push([[...at, 'query', k], v])
  for (const [where, text] of texts) {
    const stray = text.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/g, '')
    if (stray.includes('${')) ix.ctx.report(L, where, `'\${' must start a placeholder \${NAME} (letters, digits, _)`)
  }
  if (src.type !== 'wms') return
  for (const k of Object.keys(src.params ?? {})) {
    if (RESERVED_WMS.has(k.toLowerCase())) ix.ctx.report(L, [...at, 'params', k], `'${k}' is set by the proxy (use the source's own option)`)
  }
  if (/[?&](request|service)=/i.test(src.url)) ix.ctx.report(L, [...at, 'url'], `give the WMS service URL without REQUEST/SERVICE parameters`)
}

/** Scales, legends, icons, datasets, grids and sources of layers.yaml. */
export function checkCatalogue(ix: CatalogueIndex): void {
  checkScales(ix)
  checkLegends(ix)
  checkIcons(ix)
  checkDatasetsAndGrids(ix)
  checkSources(ix)
}
