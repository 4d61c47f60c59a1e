import type { FireConfig, ScoreOutput } from '../../src/generated/types'
import type { CatalogueIndex } from './catalogueIndex'
import type { PathSegment } from './problem'

const F = 'fire'
const LAYERS = 'not in config/layers.yaml'

/**
 * config/fire.yaml beyond its schema: the line datasets hold lines and their circuit (and overhead)
 * fields; the asset datasets and grids, and every output's dataset, field and grid, are in layers.yaml
 * with the types the run writes. (The landscape grids — fuels, terrain, canopy — are the store's, not
 * the catalogue's: a missing one is reported when a run starts.)
 */
export function checkFire(ix: CatalogueIndex, fire: FireConfig): void {
  const { ctx } = ix
  const dataset = (at: PathSegment[], id: string) => (ctx.ref(F, at, id, ix.datasets, 'dataset', LAYERS) ? ix.datasets.get(id) : undefined)
  const field = (at: PathSegment[], datasetId: string, name: string, type: string) => {
    const f = ix.datasets.get(datasetId)?.fields.find((x) => x.name === name)
    if (!f) ctx.report(F, at, `'${name}' is not a field of dataset '${datasetId}'`)
    else if (f.type !== type) ctx.report(F, at, `'${name}' is a ${f.type} field of dataset '${datasetId}'; the run writes a ${type}`)
  }
  fire.lines.forEach((l, i) => {
    const at: PathSegment[] = ['lines', i]
    const ds = dataset([...at, 'dataset'], l.dataset)
    if (!ds) return
    if (ds.geometry !== 'line') ctx.report(F, [...at, 'dataset'], `dataset '${l.dataset}' holds ${ds.geometry}s; ignitions need lines`)
    if (!ds.fields.some((f) => f.name === l.circuitField)) ctx.report(F, [...at, 'circuitField'], `'${l.circuitField}' is not a field of dataset '${l.dataset}'`)
    if (l.overhead && !ds.fields.some((f) => f.name === l.overhead?.field))
      ctx.report(F, [...at, 'overhead', 'field'], `'${l.overhead.field}' is not a field of dataset '${l.dataset}'`)
  })
  dataset(['assets', 'buildings'], fire.assets.buildings)
  dataset(['assets', 'criticalFacilities'], fire.assets.criticalFacilities)
  ctx.ref(F, ['assets', 'population'], fire.assets.population, ix.grids, 'grid', LAYERS)
  const c = fire.outputs.consequence
  if (dataset(['outputs', 'consequence', 'dataset'], c.dataset))
    for (const [name, type] of [
      ['identifier', 'string'],
      ['fire_consequence_score', 'number'],
      ['structures_impacted', 'number'],
      ['consequence_computed', 'string'],
    ] as const)
      field(['outputs', 'consequence', 'dataset'], c.dataset, name, type)
  ctx.ref(F, ['outputs', 'consequence', 'grid'], c.grid, ix.grids, 'grid', LAYERS)
  for (const name of ['psps', 'epss'] as const) {
    const o: ScoreOutput | undefined = fire.outputs[name]
    if (!o) continue
    const at: PathSegment[] = ['outputs', name]
    if (dataset([...at, 'dataset'], o.dataset)) {
      if (!ix.datasets.get(o.dataset)?.fields.some((f) => f.name === o.keyField))
        ctx.report(F, [...at, 'keyField'], `'${o.keyField}' is not a field of dataset '${o.dataset}'`)
      field([...at, 'field'], o.dataset, o.field, 'number')
      if (o.provenanceField) field([...at, 'provenanceField'], o.dataset, o.provenanceField, 'string')
    }
    if (o.grid && ctx.ref(F, [...at, 'grid'], o.grid, ix.grids, 'grid', LAYERS) && o.hourly && !ix.grids.get(o.grid)?.hourly)
      ctx.report(F, [...at, 'hourly'], `grid '${o.grid}' is not hourly in config/layers.yaml; hourly: true writes one band per forecast hour`)
  }
}
