// npm run feed -- <feedId> [--file PATH | --url URL] [--bbox w,s,e,n] [--now ISO-TIME] [--data-dir DIR] [--config DIR]
// Runs one feed of config/feeds.yaml once: reads its source (or --file / --url), maps and filters
// its records, writes the dataset through the store's staged replace (as `npm run import`), saves
// the tile data, and prints a summary. --now sets the clock retention and ages are measured from.
import path from 'node:path'
import { feedsConfig, type FeedsConfig } from '../src/shared/config'
import { progressBar } from '../src/server/progressBar'
import { formatSummary } from '../src/server/feeds/formatSummary'
import { runFeed } from '../src/server/feeds/runFeed'
import { runGridFeed } from '../src/server/feeds/runGridFeed'
import { catalogFrom, defaultCatalog, type Catalog } from '../src/server/store/catalog'
import { openAppStoreOrExit } from '../src/server/store/openAppStore'
import { saveTileData } from '../src/server/tiles/saveTileData'
import { compileConfig } from './config/compileConfig'
import { formatProblem } from './config/problem'

const USAGE =
  'usage: npm run feed -- <feedId> [--file PATH | --url URL] [--bbox w,s,e,n] [--now ISO-TIME] [--data-dir DIR] [--config DIR]'

function fail(message: string): never {
  console.error(message)
  process.exit(2)
}

const argv = process.argv.slice(2)
const options = new Map<string, string>()
const positional: string[] = []
for (let i = 0; i < argv.length; i++) {
  const a = argv[i] as string
  if (a.startsWith('--')) {
    const v = argv[++i]
    if (v === undefined) fail(`${a} needs a value\n${USAGE}`)
    options.set(a.slice(2), v)
  } else positional.push(a)
}
const known = new Set(['file', 'url', 'bbox', 'now', 'data-dir', 'config'])
for (const k of options.keys()) if (!known.has(k)) fail(`unknown option --${k}\n${USAGE}`)
const [feedId] = positional
if (!feedId || positional.length > 1) fail(USAGE)
if (options.has('file') && options.has('url')) fail('--file and --url exclude each other')

let config: FeedsConfig = feedsConfig
let catalog: Catalog = defaultCatalog()
const configDir = options.get('config') ?? process.env.CONFIG_DIR
if (configDir) {
  const compiled = compileConfig(path.resolve(configDir))
  if (!compiled.ok) fail(compiled.errors.map((p) => formatProblem(p)).join('\n'))
  config = compiled.config.feeds
  catalog = catalogFrom(compiled.config.layers, compiled.config.tables)
}
const gridFeed = (config.gridFeeds ?? []).find((f) => f.id === feedId)
const feed = config.feeds.find((f) => f.id === feedId)
if (!feed && !gridFeed)
  fail(
    `unknown feed '${feedId}' (declared: ${[...config.feeds, ...(config.gridFeeds ?? [])].map((f) => f.id).join(', ')})`,
  )

let bbox: number[] | undefined
if (options.has('bbox')) {
  bbox = (options.get('bbox') ?? '').split(',').map(Number)
  const [w, s, e, n] = bbox
  if (
    bbox.length !== 4 ||
    bbox.some((v) => !Number.isFinite(v)) ||
    (w ?? 0) >= (e ?? 0) ||
    (s ?? 0) >= (n ?? 0)
  )
    fail('--bbox must be west,south,east,north in degrees (west < east, south < north)')
}
const now = options.has('now') ? Date.parse(options.get('now') ?? '') : Date.now()
if (Number.isNaN(now)) fail(`--now must be an ISO 8601 time, got '${options.get('now') ?? ''}'`)

// STORE=postgres with DATABASE_URL: the shared database (every server hears of the update).
const opened = await openAppStoreOrExit(process.env, catalog, { dataDir: options.get('data-dir') })
const store = opened.store
const where = opened.kind === 'postgres' ? opened.where : opened.settings.dataDir
if (gridFeed) {
  // A grid feed (docs/grids.md): the newest published run (or --file) imported into its grid.
  if (options.has('url') || options.has('bbox')) fail('a grid feed reads its own URL or --file only')
  try {
    process.stderr.write(
      `${gridFeed.id}: reading ${options.get('file') ?? gridFeed.source.url ?? gridFeed.source.file ?? ''} (${gridFeed.format}) …\n`,
    )
    const result = await runGridFeed({ store, config, now }, gridFeed, { file: options.get('file') })
    if (!result.ok) {
      console.error(`grid feed failed, ${gridFeed.grid} unchanged: ${result.error}`)
      process.exitCode = 1
    } else {
      const g = result.summary.grid
      console.log(
        `${gridFeed.id} → ${g.grids.join(', ')}: ${g.hours} hour(s) ${g.nx}×${g.ny}, run ${g.refTime ?? g.run ?? 'unknown'}, valid ${g.validTimes[0] ?? '–'} … ${g.validTimes.at(-1) ?? '–'} (${where})`,
      )
    }
  } finally {
    await store.close()
  }
  process.exit()
}
if (!feed) throw new Error('unreachable')
const bar = progressBar()
try {
  const from = options.get('file') ?? options.get('url') ?? feed.source.file ?? feed.source.url ?? ''
  process.stderr.write(`${feed.id}: reading ${from.replace(/\?.*$/, '?…')} (${feed.format}) …\n`)
  const t0 = performance.now()
  const result = await runFeed({ store, config, now, bbox }, feed, {
    file: options.get('file'),
    url: options.get('url'),
  })
  if (!result.ok) {
    if (result.summary) for (const line of formatSummary(result.summary).slice(0, 1)) console.log(line)
    console.error(`feed failed, ${feed.dataset} unchanged: ${result.error}`)
    process.exitCode = 1
  } else {
    for (const line of formatSummary(result.summary)) console.log(line)
    console.log(`imported in ${((performance.now() - t0) / 1000).toFixed(1)} s (${where})`)
    const saved = await saveTileData(store, feed.dataset, bar.update)
    bar.stop()
    if (saved)
      console.log(
        `tile data saved to ${saved.file}${saved.archived ? ` and ${saved.archived} tiles pre-rendered` : ''}`,
      )
  }
} finally {
  bar.stop()
  await store.close()
}
