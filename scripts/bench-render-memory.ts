// npx tsx scripts/bench-render-memory.ts --database-url URL [--dataset buildings] [--render blocks|whole]
//                                        [--block-features N]
// The memory of the leader's render of a shared tile archive (PostgreSQL mode, docs/adr/0003
// "Memory"): re-renders the current version's set of every source of the dataset in this process,
// as the leader does (in slices between turns of the event loop, tiles written in batches), and
// prints the process's peak RSS (VmHWM, and sampled every 100 ms), the render's wall and CPU time,
// the blocks read and the load average. `--render whole` renders from the whole dataset's tile
// data (the render before blocks) for comparison; `--block-features` sets the blocks' budget
// (ARCHIVE_POLICY.blockFeatures). The set is rewritten with the same tiles.
import fs from 'node:fs'
import os from 'node:os'
import { defaultCatalog } from '../src/server/store/catalog'
import { openPgStore } from '../src/server/store/pg/pgStore'
import { serverSettings } from '../src/server/appSettings'
import { SharedArchives, storeRenderData } from '../src/server/tiles/sharedArchives'
import { ARCHIVE_POLICY } from '../src/server/tiles/tilePolicy'

const argv = process.argv.slice(2)
const arg = (k: string, d: string): string => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? (argv[i + 1] ?? d) : d
}
const url = arg('database-url', process.env.DATABASE_URL ?? '')
if (!url) throw new Error('--database-url (or DATABASE_URL) is required')
const datasetId = arg('dataset', 'buildings')
const mode = arg('render', 'blocks')
if (mode !== 'blocks' && mode !== 'whole') throw new Error('--render is blocks or whole')
ARCHIVE_POLICY.blockFeatures = Number(arg('block-features', String(ARCHIVE_POLICY.blockFeatures)))

const rssMiB = (field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) /
  1024

const store = await openPgStore(url, defaultCatalog())
const dataset = store.dataset(datasetId)
if (!dataset) throw new Error(`no dataset ${datasetId}`)
const info = await store.info(datasetId)
const storage = store.tileArchiveStorage
// Drop the complete set of this version (begin drops it; the render below writes it again).
for (const source of store.catalog.sources) {
  if (source.dataset !== datasetId) continue
  const set = await storage.current(source.id)
  if (set && set.version === info.version) {
    const release = await storage.lockRender(source.id, set.version)
    if (!release) throw new Error(`${source.id}: another renderer holds the set`)
    const { tiles: _t, bytes: _b, renderMs: _r, ...begin } = set
    await storage.begin(begin)
    await release()
  }
}
const shared = new SharedArchives(store, storage, {
  ...serverSettings().tiles,
  renderByBlocks: mode === 'blocks',
})
shared.renderWhen(() => true)
global.gc?.()
const before = rssMiB('VmRSS')
let peak = before
let atPeak = process.memoryUsage()
const sampler = setInterval(() => {
  const rss = rssMiB('VmRSS')
  if (rss > peak) {
    peak = rss
    atPeak = process.memoryUsage()
  }
}, 100)
const cpu0 = process.cpuUsage()
const t0 = performance.now()
await shared.render(datasetId, storeRenderData(store, dataset))
const wall = performance.now() - t0
const cpu = process.cpuUsage(cpu0)
clearInterval(sampler)
peak = Math.max(peak, rssMiB('VmRSS'))
const load = os.loadavg().map((l) => l.toFixed(1))
console.log(
  `dataset ${datasetId}: ${info.count} features, version ${info.version}; render by ${mode}${mode === 'blocks' ? ` (block budget ${ARCHIVE_POLICY.blockFeatures} features)` : ''}`,
)
for (const r of shared.rendered)
  console.log(
    `rendered ${r.source}@${r.version} in this process (the leader's place): ${r.tiles} tiles, ${(r.bytes / 1048576).toFixed(1)} MiB in ${(r.ms / 1000).toFixed(1)} s`,
  )
console.log(
  `render wall ${(wall / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (this process; PostgreSQL's backends not counted); blocks read ${shared.blocksRead}`,
)
console.log(
  `RSS before ${before.toFixed(0)} MiB, peak while rendering ${peak.toFixed(0)} MiB (sampled), VmHWM ${rssMiB('VmHWM').toFixed(0)} MiB; load average ${load.join(' / ')}`,
)
const mib = (b: number) => (b / 1048576).toFixed(0)
console.log(
  `at the peak: V8 heap used ${mib(atPeak.heapUsed)} of ${mib(atPeak.heapTotal)} MiB, external ${mib(atPeak.external)} MiB (array buffers ${mib(atPeak.arrayBuffers)} MiB)`,
)
await store.close()
