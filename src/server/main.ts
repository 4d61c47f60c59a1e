// The Emberline server: web app, data API, tiles (and the identity provider) on one port.
import path from 'node:path'
import { buildApp } from './app'
import { dataDirProblem } from './dataDirCheck'
import { ensureFirstMember } from './identity'
import { progressBar } from './progressBar'
import { isSeeded, seedDemo } from '../demo'
import { loadCatalog } from './store/loadCatalog'
import { loadFeedsConfig } from './feeds/loadFeedsConfig'
import { defaultCatalog } from './store/catalog'
import { openAppStoreOrExit } from './store/openAppStore'
import { tileIndexesOf } from './tiles/tileIndexes'
import { ClusterNode } from './cluster/clusterNode'
import { refreshDataset } from './cluster/refreshDataset'
import { withStartLock } from './cluster/startLock'
import { databaseProbe } from './cluster/databaseProbe'

const env = process.env
const port = Number(env.PORT ?? 8080)
const host = env.HOST ?? '127.0.0.1'
const dataDir = path.resolve(env.DATA_DIR ?? './var')
const demo = !/^(0|false|off|no)$/i.test(env.DEMO ?? 'on')
const catalog = env.CONFIG_DIR ? loadCatalog(path.resolve(env.CONFIG_DIR)) : defaultCatalog()
const feedsConfig = env.CONFIG_DIR ? loadFeedsConfig(path.resolve(env.CONFIG_DIR)) : null

const started = performance.now()
// Reset links must not be built from a client's Host header: off loopback, the bundled identity
// provider needs the public URL (or an explicit host allow-list).
const loopback = /^(localhost|127(\.\d{1,3}){3}|::1)$/i.test(host)
if (
  !loopback &&
  env.EMBERLINE_IDP !== 'hosted' &&
  !env.EMBERLINE_PUBLIC_URL &&
  !env.EMBERLINE_ALLOWED_HOSTS
) {
  process.stderr.write(
    `emberline: HOST=${host} is not a loopback address: set EMBERLINE_PUBLIC_URL (the address members open, used in password-reset links)\n`,
  )
  process.exit(1)
}
// A data directory the server cannot write is an operator's mistake: one clear line, no stack trace.
const problem = dataDirProblem(dataDir)
if (problem) {
  process.stderr.write(`emberline: ${problem}\n`)
  process.exit(1)
}
// STORE=sqlite (default: DATA_DIR) or STORE=postgres (DATABASE_URL; DATA_DIR then holds only local
// scratch such as the outbox). A wrong setting or an unreachable database: one line, exit 1.
const opened = await openAppStoreOrExit(env, catalog, { dataDir })
const store = opened.store
const pgUrl = opened.kind === 'postgres' ? opened.settings.url : null
// GET /api/ready asks the database on every probe, on a connection of its own.
const readyProbe = pgUrl ? databaseProbe(pgUrl) : null
const firstStart = async (): Promise<void> => {
  await ensureFirstMember(store, env, (line) => process.stdout.write(`${line}\n`), { dataDir })
  if (demo && !(await isSeeded(store)) && (await store.isEmpty()) && env.SEED !== 'off') {
    const bar = progressBar()
    const buildings = env.SEED_BUILDINGS ? Number(env.SEED_BUILDINGS) : undefined
    process.stderr.write(
      `Seeding New Mexico demo data into ${opened.kind === 'postgres' ? opened.where : dataDir} …\n`,
    )
    await seedDemo(store, { buildings, progress: bar.update })
    bar.stop()
  }
}
// Servers starting together on an empty database create the first member and seed once.
if (pgUrl) await withStartLock(pgUrl, firstStart)
else await firstStart()

// PostgreSQL: this server's membership of the cluster — the scheduled-work leadership (advisory
// lock) and the dataset change channel (LISTEN emberline_dataset), each on its own connection.
const leaderRetrySeconds = Number(env.EMBERLINE_LEADER_RETRY_SECONDS ?? 5)
const cluster = pgUrl
  ? new ClusterNode({
      url: pgUrl,
      store,
      refresh: (id, version) => refreshDataset(app, id, version),
      warn: (message, err) => app.log.warn({ err }, message),
      leaderRetryMs:
        Number.isFinite(leaderRetrySeconds) && leaderRetrySeconds > 0 ? leaderRetrySeconds * 1000 : 5000,
      onLeaderChange: (leader) =>
        app.log.info(
          { leader },
          leader
            ? 'leading the scheduled work (feed polling, alert evaluation, delivery)'
            : 'no longer leading the scheduled work',
        ),
      // The leader completed a large dataset's shared tile archive: serve it (docs/adr/0003).
      onArchive: (id) => void tileIndexesOf(store).shared?.refresh(id ?? undefined),
    })
  : null

const app = await buildApp({
  dataDir,
  demo,
  store,
  logger: {
    level: env.LOG_LEVEL ?? 'info',
    // Query strings can carry one-time tokens (password-reset links): log paths only.
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
    },
  },
  trustProxy: /^(1|true|on|yes)$/i.test(env.TRUST_PROXY ?? ''),
  sourceMaps: /^(1|true|on|yes)$/i.test(env.EMBERLINE_SOURCE_MAPS ?? ''),
  connectSrc: [
    ...(env.VITE_EMBERLINE_IDP_HOST ? [`https://${env.VITE_EMBERLINE_IDP_HOST}`] : []),
    ...(env.EMBERLINE_CSP_CONNECT_SRC ?? '').split(/\s+/).filter(Boolean),
  ],
  staticDir: env.STATIC_DIR ?? path.resolve(import.meta.dirname, '../../dist'),
  // Live public feeds (config/feeds.yaml, or CONFIG_DIR/feeds.yaml) on their schedule; off by
  // default: the demo stays synthetic.
  feeds: /^(1|true|on|yes)$/i.test(env.FEEDS ?? '') ? (feedsConfig ? { config: feedsConfig } : true) : false,
  cluster: cluster ? { leader: cluster.leader, probe: readyProbe?.probe } : undefined,
  // The fire consequence run (docs/fire.md): the leader starts one after each weather update and
  // every server's worker threads take its batches; off by default (FIRE_RUNS=on).
  fireRuns: {
    schedule: /^(1|true|on|yes)$/i.test(env.FIRE_RUNS ?? ''),
    ...(env.FIRE_WORKERS ? { settings: { workers: Math.max(1, Number(env.FIRE_WORKERS) || 1) } } : {}),
  },
})

// Graceful shutdown: GET /api/ready answers 503 at once; after EMBERLINE_DRAIN_SECONDS (time for
// the load balancer to notice) the listener closes and in-flight requests finish (app.close()),
// then the dataset channel, the leadership (its lock released) and the store's pool close.
const drainSeconds = Math.max(0, Number(env.EMBERLINE_DRAIN_SECONDS ?? 0) || 0)
let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return
    closing = true
    app.readiness.drain()
    app.log.info({ signal, drainSeconds }, 'draining: not ready, finishing requests')
    const force = setTimeout(() => process.exit(1), (drainSeconds + 10) * 1000)
    force.unref()
    new Promise((resolve) => setTimeout(resolve, drainSeconds * 1000))
      .then(() => app.close())
      .then(() => cluster?.close())
      .then(() => readyProbe?.close())
      .then(() => store.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error(err)
          process.exit(1)
        },
      )
  })
}

// Notices from now on are heard; versions changed before are in the baseline.
await cluster?.listen()
// GET /api/ready answers 503 'starting' until the warm-up below is done; /api/health answers at
// once (the warm-up runs in worker threads and in slices between requests).
const warming = app.readiness.hold()
await app.listen({ port, host })
// The leader renders the large datasets' shared tile archives (PostgreSQL mode, docs/adr/0003).
if (cluster) tileIndexesOf(store).shareArchives(cluster.leader)
// Every server serves them from a local copy on its own disk once whole (the database before).
if (cluster) tileIndexesOf(store).shared?.keepLocalCopies(path.join(dataDir, 'tile-archive-copies'))
await cluster?.leader.start()
app.log.info(
  { store: opened.kind, dataDir, demo, startupMs: Math.round(performance.now() - started) },
  'emberline listening (warming up)',
)
// Build the tile indexes in a worker thread (tiles are served from the store meanwhile), and
// the records indexes now rather than on the first requests.
const warmStart = performance.now()
const tileWarm = tileIndexesOf(store)
  .warm()
  .then(
    () => app.log.info({ ms: Math.round(performance.now() - warmStart) }, 'tile indexes ready'),
    (err: unknown) => app.log.error(err, 'tile index build failed (tiles are served from the store)'),
  )
const recordsWarm = new Promise((resolve) => setImmediate(resolve))
  .then(() => store.warm())
  .catch((err: unknown) => app.log.error(err, 'records index warm-up failed'))
void Promise.all([tileWarm, recordsWarm]).then(() => {
  warming()
  app.log.info({ startupMs: Math.round(performance.now() - started) }, 'emberline ready')
})
