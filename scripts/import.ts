// npm run import -- <dataset> <file.geojson|file.ndjson|file.csv> [--config <dir>] [--data-dir <dir>] [--inline]
// Replaces a dataset's features in one transaction: a bad file leaves the previous data intact.
// A worker thread reads, parses and encodes the file while this thread inserts (--inline: one thread).
// STORE=postgres with DATABASE_URL loads into the shared database with COPY; every server hears
// of it at the commit (NOTIFY emberline_dataset) and serves the new data.
import fs from 'node:fs'
import path from 'node:path'
import { progressBar } from '../src/server/progressBar'
import { defaultCatalog, filterableFields, type DatasetDef } from '../src/server/store/catalog'
import { encodedRowsInWorker } from '../src/server/store/encodedRowsInWorker'
import { loadCatalog } from '../src/server/store/loadCatalog'
import { readFeatures } from '../src/server/store/readFeatures'
import { importEncodedRows } from '../src/server/store/openStoreFile'
import { openAppStoreOrExit } from '../src/server/store/openAppStore'
import { saveTileData } from '../src/server/tiles/saveTileData'

const argv = process.argv.slice(2)
const options = new Map<string, string>()
const positional: string[] = []
for (let i = 0; i < argv.length; i++) {
  const a = argv[i] as string
  if (a === '--inline') options.set('inline', 'yes')
  else if (a.startsWith('--')) options.set(a.slice(2), argv[++i] ?? '')
  else positional.push(a)
}
const [datasetId, file] = positional
if (!datasetId || !file) {
  console.error(
    'usage: npm run import -- <dataset> <file.geojson|file.ndjson|file.csv> [--config <dir>] [--data-dir <dir>] [--inline]',
  )
  process.exit(2)
}
const configDir = options.get('config') ?? process.env.CONFIG_DIR
const catalog = configDir ? loadCatalog(path.resolve(configDir)) : defaultCatalog()
const dataDir = path.resolve(options.get('data-dir') ?? process.env.DATA_DIR ?? './var')
if (!catalog.datasets.some((d) => d.id === datasetId)) {
  console.error(`unknown dataset '${datasetId}' (declared: ${catalog.datasets.map((d) => d.id).join(', ')})`)
  process.exit(2)
}
if (!fs.existsSync(file)) {
  console.error(`${file}: no such file`)
  process.exit(2)
}

/**
 * Parsing, encoding, cells and column index in a worker thread; inserts here, one transaction
 * (PostgreSQL: COPY into a staging table swapped in at the commit).
 */
function importInWorker(d: DatasetDef): Promise<number> | number {
  const aggZooms = opened.store.aggregateZooms(d.id)
  const indexFields = [...filterableFields(catalog, d.id).values()]
  const source = encodedRowsInWorker(path.resolve(file as string), d, { aggZooms, indexFields })
  const options = {
    aggZooms,
    indexFields,
    onProgress: (done: number) => bar.update(`importing ${d.id}`, done),
    precomputed: source.precomputed,
  }
  return opened.kind === 'postgres'
    ? opened.store.importEncodedRows(d, source.rows, options)
    : importEncodedRows(opened.store, d, source.rows, options)
}

const t0 = performance.now()
const opened = await openAppStoreOrExit(process.env, catalog, { dataDir: options.get('data-dir') })
const store = opened.store
const where = opened.kind === 'postgres' ? opened.where : dataDir
const bar = progressBar()
try {
  const onProgress = (done: number): void => bar.update(`importing ${datasetId}`, done)
  const d = store.dataset(datasetId) as DatasetDef
  const n = options.has('inline')
    ? await store.replaceDataset(datasetId, readFeatures(file), onProgress)
    : await importInWorker(d)
  bar.stop()
  console.log(
    `imported ${n} features into ${datasetId} (${where}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
  // The server's next start reads the tile data (and small sources' pre-rendered tiles) instead
  // of building them after listen.
  const t1 = performance.now()
  const saved = await saveTileData(store, datasetId, bar.update)
  bar.stop()
  if (saved)
    console.log(
      `tile data saved to ${saved.file}${saved.archived ? ` and ${saved.archived} tiles pre-rendered` : ''} in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
    )
} catch (e) {
  bar.stop()
  console.error(
    `import failed, ${datasetId} unchanged: ${file}: ${e instanceof Error ? e.message : String(e)}`,
  )
  process.exitCode = 1
} finally {
  await store.close()
}
