// npm run seed [-- --buildings N | --scale K] [--seed S] [--data-dir DIR]
// (Re)fills the store with the deterministic New Mexico demo data, in one transaction.
// STORE=postgres with DATABASE_URL seeds the shared database (every server hears of each dataset).
import { progressBar } from '../src/server/progressBar'
import { DEFAULT_BUILDINGS, DEFAULT_SEED } from '../src/demo/generateDemo'
import { seedDemo } from '../src/demo/seedDemo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openAppStoreOrExit } from '../src/server/store/openAppStore'
import { saveTileData } from '../src/server/tiles/saveTileData'

const argv = process.argv.slice(2)
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}
const scale = Number(arg('scale') ?? 1)
const buildings = Number(arg('buildings') ?? process.env.SEED_BUILDINGS ?? DEFAULT_BUILDINGS * scale)
const seed = Number(arg('seed') ?? DEFAULT_SEED)
const dataDirArg = arg('data-dir')
if (!Number.isInteger(buildings) || buildings < 0) throw new Error('--buildings must be a whole number')

const t0 = performance.now()
const opened = await openAppStoreOrExit(process.env, defaultCatalog(), { dataDir: dataDirArg })
const store = opened.store
const where = opened.kind === 'postgres' ? opened.where : opened.settings.dataDir
const bar = progressBar()
try {
  await seedDemo(store, { buildings, seed, progress: bar.update })
  // Tile data for every dataset, so the server's next start reads it instead of building it.
  for (const d of store.catalog.datasets) await saveTileData(store, d.id, bar.update)
} finally {
  bar.stop()
  await store.close()
}
console.log(
  `seeded ${where} (${buildings} buildings, seed ${seed}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
)
