import type { AppStore } from '../server/store/AppStore'
import { DEFAULT_BUILDINGS, DEFAULT_SEED, generateDemo, type DemoOptions } from './generateDemo'
import { seedSteps, type SeedContext, type SeedStep } from './seedSteps'

export const SEED_META_KEY = 'demo_seed'

export interface SeedOptions extends DemoOptions {
  progress?: SeedContext['progress']
  /** Steps to run after the datasets (defaults to the registered `seedSteps`). */
  steps?: readonly SeedStep[]
}

/**
 * Fills the store with the demo data in ONE transaction (`store.transaction`): if anything
 * fails (or the process dies) half-way, the previous content stays. Datasets in the catalog
 * without a demo generator are emptied; the seed parameters are recorded in meta `demo_seed`.
 */
export async function seedDemo(store: AppStore, options: SeedOptions = {}): Promise<void> {
  const demo = generateDemo(options)
  const progress = options.progress ?? (() => undefined)
  const ctx: SeedContext = { store, demo, progress }
  await store.transaction(async () => {
    for (const d of store.catalog.datasets) {
      const produce = demo.datasets[d.id]
      const total = d.id === 'buildings' ? demo.context.buildings : undefined
      await store.replaceDataset(d.id, produce ? produce() : [], (n) => progress(d.id, n, total))
    }
    for (const [name, points] of Object.entries(demo.series)) await store.replaceSeries(name, points)
    for (const step of options.steps ?? seedSteps) {
      progress(step.name, 0)
      await step.run(ctx)
    }
    await store.setMeta(
      SEED_META_KEY,
      JSON.stringify({
        seed: options.seed ?? DEFAULT_SEED,
        buildings: options.buildings ?? DEFAULT_BUILDINGS,
      }),
    )
  })
}

export async function isSeeded(store: AppStore): Promise<boolean> {
  return (await store.getMeta(SEED_META_KEY)) !== undefined
}
