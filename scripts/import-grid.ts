/**
 * Replaces a grid with a raster file:
 *   npm run import-grid -- <gridId> <file> [--variable NAME] [--element ELEMENT[:LEVEL]]
 *     [--from ISO-TIME] [--ref-time ISO-TIME] [--resampling bilinear|nearest]
 *     [--extent W,S,E,N] [--resolution DEG] [--source NAME-OR-URL] [--data-dir DIR]
 * GeoTIFF/COG in any CRS (EPSG code or WKT), NetCDF (CF time axis → forecast hours) or GRIB2
 * (each message's valid time → forecast hours), reprojected to the grid's longitude/latitude
 * grid with GDAL (docs/grids.md "Importing real rasters"); the work is `importGridFile`
 * (src/server/grids/importGridFile.ts), which the ingestion API calls too. The previous grid
 * stays intact if anything fails. STORE=postgres with DATABASE_URL replaces it in the shared
 * database.
 */
import fs from 'node:fs'
import { GridImportError, importGridFile, type ImportGridOptions } from '../src/server/grids/importGridFile'
import type { GridStorage } from '../src/server/store/AppStore'
import { defaultCatalog } from '../src/server/store/catalog'
import { openAppStoreOrExit, StoreSetupError, storeSettings } from '../src/server/store/openAppStore'
import { openGridStorage } from '../src/server/store/openStoreFile'

const USAGE =
  'usage: npm run import-grid -- <gridId> <file> [--variable NAME] [--element ELEMENT[:LEVEL]] [--from ISO-TIME] ' +
  '[--ref-time ISO-TIME] [--resampling bilinear|nearest] [--extent W,S,E,N] [--resolution DEG] [--source NAME] [--data-dir DIR]'

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

const FLAGS = [
  'data-dir',
  'variable',
  'element',
  'from',
  'ref-time',
  'resampling',
  'extent',
  'resolution',
  'source',
] as const
type Flag = (typeof FLAGS)[number]

function parseArgs(argv: readonly string[]): { positional: string[]; flags: Partial<Record<Flag, string>> } {
  const positional: string[] = []
  const flags: Partial<Record<Flag, string>> = {}
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k]!
    if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    if (!(FLAGS as readonly string[]).includes(name)) fail(`unknown option --${name}\n${USAGE}`)
    const value = inline ?? argv[++k]
    if (value === undefined || value === '') fail(`--${name} needs a value`)
    flags[name as Flag] = value
  }
  return { positional, flags }
}

function options(flags: Partial<Record<Flag, string>>): ImportGridOptions {
  const o: { -readonly [K in keyof ImportGridOptions]: ImportGridOptions[K] } = {}
  if (flags.variable) o.variable = flags.variable
  if (flags.element) o.element = flags.element
  if (flags.from) o.from = flags.from
  if (flags['ref-time']) o.refTime = flags['ref-time']
  if (flags.source) o.source = flags.source
  if (flags.resampling) {
    if (flags.resampling !== 'bilinear' && flags.resampling !== 'nearest')
      fail(`--resampling: 'bilinear' or 'nearest', not '${flags.resampling}'`)
    o.resampling = flags.resampling
  }
  if (flags.extent) {
    const e = flags.extent.split(',').map(Number)
    if (e.length !== 4 || !e.every(Number.isFinite)) fail('--extent: four numbers W,S,E,N in degrees')
    o.extent = e as [number, number, number, number]
  }
  if (flags.resolution) {
    const r = Number(flags.resolution)
    if (!Number.isFinite(r)) fail('--resolution: a cell size in degrees')
    o.resolution = r
  }
  return o
}

async function main(): Promise<void> {
  const { positional, flags } = parseArgs(process.argv.slice(2))
  const dataDir = flags['data-dir'] ?? process.env.DATA_DIR ?? './var'
  const [gridId, file] = positional
  if (!gridId || !file || positional.length > 2) fail(USAGE)
  if (!fs.existsSync(file)) fail(`no such file: ${file}`)
  const importOptions = options(flags)
  const store = await openGrids(dataDir)
  let s
  try {
    s = await importGridFile(store, gridId, file, importOptions)
  } catch (e) {
    await store.close()
    if (e instanceof GridImportError) fail(`${file}: ${e.message}`)
    throw e
  }
  await store.close()
  const times =
    s.validTimes.length > 0
      ? `, valid ${s.validTimes[0]}${s.validTimes.length > 1 ? ` .. ${s.validTimes.at(-1)}` : ''}`
      : ''
  console.log(
    `import-grid: ${gridId} ← ${file} (${s.format}${s.variable ? ` ${s.variable}` : ''}, ${s.crs}, ${s.resampling}): ` +
      `${s.hours} hour(s) of ${s.nx}×${s.ny}, lon ${s.west.toFixed(3)}..${s.east.toFixed(3)}, ` +
      `lat ${s.south.toFixed(3)}..${s.north.toFixed(3)}${s.refTime ? `, run ${s.refTime}` : ''}${times} (version ${s.version})`,
  )
}

await main()
