// The data server for benchmarks: buildApp over the store the environment selects (DATA_DIR, or
// STORE=postgres with DATABASE_URL) and CONFIG_DIR, with a fixed bearer token (BENCH_TOKEN)
// instead of the identity provider. Prints `listening <port> <startup ms>`.
import path from 'node:path'
import { buildApp } from '../../src/server/app'
import { defaultCatalog } from '../../src/server/store/catalog'
import { loadCatalog } from '../../src/server/store/loadCatalog'
import { openAppStoreOrExit } from '../../src/server/store/openAppStore'
import { tileIndexesOf } from '../../src/server/tiles/tileIndexes'

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
app.addHook('onClose', async () => store.close())
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
const address = app.server.address()
const port = typeof address === 'object' && address ? address.port : 0
// Build the tile indexes (worker thread) and the records indexes right after listening, as main.ts
// does; `warm` is printed once both are ready (bench-server.ts measures cold tiles after it).
const tilesReady = tileIndexesOf(store)
  .warm()
  .then(() => console.log(`tiles ready ${Math.round(performance.now() - t0)}`))
setImmediate(() => {
  void Promise.all([tilesReady, store.warm()]).then(() =>
    console.log(`warm ${Math.round(performance.now() - t0)}`),
  )
})
console.log(`listening ${port} ${Math.round(performance.now() - t0)}`)
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
