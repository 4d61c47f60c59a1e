import { seedGrids } from './grids/seedGrids'
import type { AppStore } from '../server/store/AppStore'
import type { DemoData } from './generateDemo'

/** What a seed step gets: the open store, the generated demo data and a progress reporter. */
export interface SeedContext {
  store: AppStore
  demo: DemoData
  progress(label: string, done: number, total?: number): void
}

/**
 * A step of `npm run seed` / first-start seeding, run inside the seed's one transaction: it
 * awaits the store's calls and nothing else (see FeatureStore.transaction).
 */
export interface SeedStep {
  name: string
  run(ctx: SeedContext): Promise<void>
}

/**
 * Extra seed steps run after the feature datasets and series (e.g. the gridded fields).
 * Add yours here: `import { seedGrids } from './grids/seedGrids'` and list it.
 */
export const seedSteps: SeedStep[] = [
  {
    name: 'grids',
    run: async (ctx) => {
      await seedGrids(ctx.store, { seed: ctx.demo.context.seed, places: ctx.demo.context.geo.places })
    },
  },
]
