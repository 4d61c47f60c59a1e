// The Emberline server: web app, data API, tiles (and the identity provider) on one port.
import path from 'node:path'
import { buildApp } from './app'
import { dataDirProblem } from './dataDirCheck'
import { ensureFirstMember } from './identity'
import { progressBar } from './progressBar'
import { isSeeded, seedDemo } from '../demo'
import { loadCatalog } from './store/loadCatalog'
import { defaultCatalog } from './store/catalog'
import { openStore } from './store/sqliteStore'
import { tileIndexesOf } from './tiles/tileIndexes'

const env = process.env
const port = Number(env.PORT ?? 8080)
const host = env.HOST ?? '127.0.0.1'
const dataDir = path.resolve(env.DATA_DIR ?? './var')
const demo = !/^(0|false|off|no)$/i.test(env.DEMO ?? 'on')
const catalog = env.CONFIG_DIR ? loadCatalog(path.resolve(env.CONFIG_DIR)) : defaultCatalog()

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
const store = openStore(dataDir, catalog)
await ensureFirstMember(store, env, (line) => process.stdout.write(`${line}\n`), { dataDir })
if (demo && !isSeeded(store) && store.isEmpty() && env.SEED !== 'off') {
  const bar = progressBar()
  const buildings = env.SEED_BUILDINGS ? Number(env.SEED_BUILDINGS) : undefined
  process.stderr.write(`Seeding New Mexico demo data into ${dataDir} …\n`)
  seedDemo(store, { buildings, progress: bar.update })
  bar.stop()
}

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
  // Live public feeds (config/feeds.yaml) on their schedule; off by default: the demo stays synthetic.
  feeds: /^(1|true|on|yes)$/i.test(env.FEEDS ?? ''),
})
app.addHook('onClose', async () => store.close())

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error(err)
        process.exit(1)
      },
    )
  })
}

await app.listen({ port, host })
app.log.info({ dataDir, demo, startupMs: Math.round(performance.now() - started) }, 'emberline ready')
// Build the tile indexes in a worker thread (tiles are served from the store meanwhile), and
// the records indexes now rather than on the first requests.
const warmStart = performance.now()
tileIndexesOf(store)
  .warm()
  .then(
    () => app.log.info({ ms: Math.round(performance.now() - warmStart) }, 'tile indexes ready'),
    (err: unknown) => app.log.error(err, 'tile index build failed (tiles are served from the store)'),
  )
setImmediate(() => store.warm())
