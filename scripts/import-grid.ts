/**
 * Replaces a configured grid with a GeoTIFF: `npm run import-grid -- <gridId> <file.tif> [--data-dir DIR]`.
 * The GeoTIFF must be in longitude/latitude degrees (EPSG:4326); band n is forecast hour n for
 * hourly grids. The previous grid stays intact if anything fails. STORE=postgres with DATABASE_URL
 * replaces it in the shared database.
 */
import fs from 'node:fs'
import path from 'node:path'
import { ELEVATION_GRID, FUEL_MODEL_GRID } from '../src/server/fire/landscape'
import { gridCatalog } from '../src/server/grids/gridCatalog'
import { readGeoTiff } from '../src/server/grids/readGeoTiff'
import type { GridStorage } from '../src/server/store/AppStore'
import { defaultCatalog } from '../src/server/store/catalog'
import { openAppStoreOrExit, StoreSetupError, storeSettings } from '../src/server/store/openAppStore'
import { openGridStorage } from '../src/server/store/openStoreFile'

function fail(message: string): never {
  console.error(`import-grid: ${message}`)
  process.exit(1)
}

/** The grids of the store STORE selects: SQLite in the data directory, or the shared PostgreSQL. */
async function openGrids(dataDir: string): Promise<{ grids: GridStorage; close(): unknown }> {
  let kind: 'sqlite' | 'postgres'
  try {
    kind = storeSettings(process.env, dataDir).kind
  } catch (e) {
    if (!(e instanceof StoreSetupError)) throw e
    fail(e.message)
  }
  if (kind === 'sqlite') return openGridStorage(dataDir)
  const opened = await openAppStoreOrExit(process.env, defaultCatalog(), { dataDir })
  return { grids: opened.store.grids, close: () => opened.store.close() }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const at = args.indexOf('--data-dir')
  const dataDir =
    at >= 0
      ? (args.splice(at, 2)[1] ?? fail('--data-dir needs a directory'))
      : (process.env.DATA_DIR ?? './var')
  const [gridId, file] = args
  if (!gridId || !file) fail('usage: npm run import-grid -- <gridId> <file.tif> [--data-dir DIR]')
  // The fire landscape's fuel and elevation grids (docs/fire.md) are not map layers, one band each.
  const fireGrids = [FUEL_MODEL_GRID, ELEVATION_GRID]
  const grid =
    gridCatalog().grids.find((g) => g.id === gridId) ??
    (fireGrids.includes(gridId) ? { id: gridId, hours: 1 } : undefined)
  if (!grid)
    fail(
      `unknown grid '${gridId}' (grids: ${[...gridCatalog().grids.map((g) => g.id), ...fireGrids].join(', ')})`,
    )
  if (!fs.existsSync(file)) fail(`no such file: ${file}`)
  const bytes = fs.readFileSync(file)
  let bands
  try {
    bands = await readGeoTiff(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  } catch (e) {
    fail(`${file}: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (bands.length > grid.hours)
    fail(`${file} has ${bands.length} bands; grid ${gridId} holds ${grid.hours} hour(s)`)
  const store = await openGrids(dataDir)
  const version = await store.grids.replaceGrid(gridId, bands, `import:${path.basename(file)}`)
  await store.close()
  const b = bands[0]!
  console.log(
    `import-grid: ${gridId} ← ${file}: ${bands.length} band(s) of ${b.nx}×${b.ny}, ` +
      `lon ${b.west.toFixed(3)}..${b.east.toFixed(3)}, lat ${b.south.toFixed(3)}..${b.north.toFixed(3)} (version ${version})`,
  )
}

await main()
