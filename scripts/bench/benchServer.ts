// The data server for benchmarks: buildApp over the store the environment selects (DATA_DIR, or
// STORE=postgres with DATABASE_URL) and CONFIG_DIR, with a fixed bearer token (BENCH_TOKEN)
// instead of the identity provider. Prints `listening <port> <startup ms>`.
import fs from 'node:fs'
import path from 'node:path'
import { buildApp } from '../../src/server/app'
import { defaultCatalog } from '../../src/server/store/catalog'
import { loadCatalog } from '../../src/server/store/loadCatalog'
import { openAppStoreOrExit } from '../../src/server/store/openAppStore'
import { tileIndexesOf } from '../../src/server/tiles/tileIndexes'
import { ClusterNode } from '../../src/server/cluster/clusterNode'
import { refreshDataset } from '../../src/server/cluster/refreshDataset'
import { tileArchiveStorageOf } from '../../src/server/store/tileArchiveStorage'

const t0 = performance.now()
const token = process.env.BENCH_TOKEN ?? 'bench-token'
const dataDir = path.resolve(process.env.DATA_DIR ?? './var')
const catalog = process.env.CONFIG_DIR ? loadCatalog(path.resolve(process.env.CONFIG_DIR)) : defaultCatalog()
const { store } = await openAppStoreOrExit(process.env, catalog, {
  dataDir,
  applicationName: 'emberline-bench',
})
const app = await buildApp({
  dataDir,
  demo: process.env.DEMO !== 'off',
  store,
  verifier: {
    async verify(credential) {
      if (credential !== token) return null
      return {
        memberId: 'bench',
        sessionId: 'bench',
        organizationId: 'bench',
        roles: [],
        expiresAt: new Date(Date.now() + 86_400_000),
      }
    },
  },
})
// PostgreSQL mode: a member of the cluster as main.ts makes it (the leadership renders the large
// datasets' shared tile archives, docs/adr/0003; the dataset channel switches to a completed set).
const pgUrl = process.env.STORE === 'postgres' ? process.env.DATABASE_URL : undefined
const cluster = pgUrl
  ? new ClusterNode({
      url: pgUrl,
      store,
      refresh: (id, version) => refreshDataset(app, id, version),
      warn: (message, err) => console.error(message, err),
      onArchive: (id) => void tileIndexesOf(store).shared?.refresh(id ?? undefined),
    })
  : null
app.addHook('onClose', async () => {
  await cluster?.close()
  await store.close()
})
await cluster?.listen()
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
if (cluster) tileIndexesOf(store).shareArchives(cluster.leader)
// Each server's local copy of the shared sets (as main.ts): cold tiles from its disk once whole.
if (process.env.LOCAL_COPIES !== 'off')
  tileIndexesOf(store).shared?.keepLocalCopies(path.join(dataDir, 'tile-archive-copies'))
await cluster?.leader.start()
const address = app.server.address()
const port = typeof address === 'object' && address ? address.port : 0
// Build the tile indexes (worker thread) and the records indexes right after listening, as main.ts
// does; `warm` is printed once both are ready (bench-server.ts measures cold tiles after it).
const tilesReady = tileIndexesOf(store)
  .warm()
  .then(() => sharedSets())
  .then(() => console.log(`tiles ready ${Math.round(performance.now() - t0)}`))

/** PostgreSQL mode: waits until every large dataset's current version has a complete shared set. */
async function sharedSets(): Promise<void> {
  const shared = tileIndexesOf(store).shared
  if (!shared) return
  for (;;) {
    let all = true
    for (const d of store.catalog.datasets) {
      const { version, count } = await store.info(d.id)
      if (shared.handles(d.id, count) && !(await shared.complete(d.id, version))) all = false
    }
    if (all) break
    await new Promise((r) => setTimeout(r, 500))
  }
  await shared.localCopiesDone()
  for (const c of shared.copied)
    console.log(
      `archive ${c.source}@${c.version} copied to this server's disk: ${c.tiles} tiles in ${(c.ms / 1000).toFixed(1)} s`,
    )
  const storage = tileArchiveStorageOf(store)
  for (const source of store.catalog.sources) {
    const set = await storage?.current(source.id)
    if (set && !shared.rendered.some((r) => r.source === source.id && r.version === set.version))
      console.log(
        `archive ${set.source}@${set.version} complete before this start (rendered by ${set.renderedBy ?? 'a leader'} in ${((set.renderMs ?? 0) / 1000).toFixed(1)} s): ${set.tiles} tiles, ${(set.bytes / 1048576).toFixed(1)} MiB`,
      )
  }
  for (const r of shared.rendered)
    console.log(
      `archive ${r.source}@${r.version} rendered by this server (leader ${shared.leading}): ${r.tiles} tiles, ${(r.bytes / 1048576).toFixed(1)} MiB in ${(r.ms / 1000).toFixed(1)} s`,
    )
  const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]
  console.log(
    `archive sets complete ${Math.round(performance.now() - t0)} ms after start; peak RSS ${Math.round(Number(hwm) / 1024)} MiB`,
  )
}
setImmediate(() => {
  void Promise.all([tilesReady, store.warm()]).then(() =>
    console.log(`warm ${Math.round(performance.now() - t0)}`),
  )
})
console.log(`listening ${port} ${Math.round(performance.now() - t0)}`)
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
