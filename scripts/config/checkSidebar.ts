import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { LayerDefinition } from '../../src/generated/types'
import type { CatalogueIndex } from './catalogueIndex'
import { checkCondition } from './checkMapLayers'

const L = 'layers'
let blueprintIcons: Set<string> | null | undefined

/** Blueprint's icon names, read from the package's generated enum (cheap: no module load). Null if unavailable. */
function blueprintIconNames(): Set<string> | null {
  if (blueprintIcons !== undefined) return blueprintIcons
  try {
    const require = createRequire(import.meta.url)
    const dir = path.dirname(require.resolve('@blueprintjs/icons/package.json'))
    const text = fs.readFileSync(path.join(dir, 'lib/cjs/generated/16px/blueprint-icons-16.js'), 'utf8')
    blueprintIcons = new Set([...text.matchAll(/\] = "([a-z0-9-]+)";/g)].map((m) => m[1] ?? ''))
    if (blueprintIcons.size === 0) blueprintIcons = null
  } catch {
    blueprintIcons = null
  }
  return blueprintIcons
}

function checkCategories(ix: CatalogueIndex): void {
  const names = blueprintIconNames()
  ix.layers.categories.forEach((c, i) => {
    if (names && !names.has(c.icon)) ix.ctx.report(L, ['categories', i, 'icon'], `unknown icon '${c.icon}': not a Blueprint icon name`)
  })
}

function checkSubLayers(ix: CatalogueIndex, layer: LayerDefinition, i: number): void {
  const at = ['layers', i]
  const ids = new Set<string>()
  layer.subLayers?.forEach((sub, j) => {
    const s = [...at, 'subLayers', j]
    if (ids.has(sub.id)) ix.ctx.report(L, [...s, 'id'], `duplicate sub-layer id '${sub.id}' in layer '${layer.id}'`)
    ids.add(sub.id)
    if (!ix.ctx.ref(L, [...s, 'mapLayer'], sub.mapLayer, ix.mapLayers, 'map layer')) return
    if (!layer.layers.includes(sub.mapLayer)) ix.ctx.report(L, [...s, 'mapLayer'], `map layer '${sub.mapLayer}' is not one of the layer's 'layers'`)
    const ml = ix.mapLayers.get(sub.mapLayer)
    if (sub.filter && ml) checkCondition(ix, [...s, 'filter'], sub.filter, ix.sourceFields(ml.source), ml.source)
  })
  if (layer.subLayerControl === 'radio' && layer.selectedSubLayer === undefined) {
    ix.ctx.report(L, at, `a radio sub-layer control needs 'selectedSubLayer'`)
  }
  if (layer.subLayerControl !== undefined && layer.subLayerControl !== 'none' && !layer.subLayers?.length) {
    ix.ctx.report(L, [...at, 'subLayerControl'], `a ${layer.subLayerControl} control needs 'subLayers'`)
  }
  if (layer.selectedSubLayer !== undefined && !ids.has(layer.selectedSubLayer)) {
    ix.ctx.report(L, [...at, 'selectedSubLayer'], `unknown sub-layer '${layer.selectedSubLayer}': not one of the layer's subLayers`)
  }
}

function checkPanel(ix: CatalogueIndex, layer: LayerDefinition, i: number): void {
  const panel = layer.panel
  if (!panel) return
  const at = ['layers', i, 'panel']
  const texts = new Set(Object.keys(ix.app.texts))
  panel.texts?.forEach((t, j) => ix.ctx.ref(L, [...at, 'texts', j], t, texts, 'text', "a key of app.yaml 'texts'"))
  ix.ctx.ref(L, [...at, 'scoreBox'], panel.scoreBox, texts, 'text', "a key of app.yaml 'texts'")
  if (panel.lineLegend !== undefined && ix.ctx.ref(L, [...at, 'lineLegend'], panel.lineLegend, ix.legends, 'legend')) {
    const legend = ix.legends.get(panel.lineLegend)
    if (legend && legend.type !== 'line') ix.ctx.report(L, [...at, 'lineLegend'], `legend '${panel.lineLegend}' is of type ${legend.type}, not line`)
  }
}

function checkTableLink(ix: CatalogueIndex, layer: LayerDefinition, i: number, tableless: Set<string>): void {
  const at = ['layers', i]
  if (layer.table === undefined) {
    if (!tableless.has(layer.id)) ix.ctx.report(L, at, `layer '${layer.id}' has no 'table'; name its table or list it in layersWithoutTable`)
    return
  }
  if (tableless.has(layer.id)) {
    ix.ctx.report(L, [...at, 'table'], `layer '${layer.id}' is listed in layersWithoutTable and must not have a table`, true)
    return
  }
  if (!ix.ctx.ref(L, [...at, 'table'], layer.table, ix.tableDefs, 'table')) return
  const table = ix.tableDefs.get(layer.table)
  if (table && table.layer !== layer.id) ix.ctx.report(L, [...at, 'table'], `table '${layer.table}' belongs to layer '${table.layer}', not '${layer.id}'`)
}

/** Categories and the layer definitions the sidebar lists. */
export function checkSidebar(ix: CatalogueIndex): void {
  checkCategories(ix)
  const tableless = new Set<string>()
  ix.layers.layersWithoutTable.forEach((id, j) => {
    if (ix.ctx.ref(L, ['layersWithoutTable', j], id, ix.layerDefs, 'layer')) tableless.add(id)
  })
  ix.layers.layers.forEach((layer, i) => {
    const at = ['layers', i]
    ix.ctx.ref(L, [...at, 'category'], layer.category, ix.categories, 'category')
    const seen = new Set<string>()
    layer.layers.forEach((id, j) => {
      if (seen.has(id)) ix.ctx.report(L, [...at, 'layers', j], `map layer '${id}' is listed twice`)
      seen.add(id)
      ix.ctx.ref(L, [...at, 'layers', j], id, ix.mapLayers, 'map layer')
    })
    checkSubLayers(ix, layer, i)
    checkPanel(ix, layer, i)
    checkTableLink(ix, layer, i, tableless)
  })
}
