// npm run bench:export [-- --buildings N] [--data-dir DIR] [--exports N] [--per-member N]
// Exports under load, in this process: a seeded store (DATA_DIR reused when given and seeded), the
// app on a loopback port, N exports of every building at once (half GeoJSON, half GeoPackage, each
// by its own member) while GET /api/health is polled every 20 ms. Prints each export's status and
// time, the health answers' latency (worst, p50, and how many came while exports ran), the peak
// RSS and the peak bytes of GeoPackage temporary files. --per-member/--total set the limits (by
// default config/app.yaml's; raise --total to let all N run at once).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../src/server/app'
import { seedDemo } from '../src/demo/seedDemo'
import { isSeeded } from '../src/demo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { appConfig } from '../src/shared/config'

const argv = process.argv.slice(2)
const arg = (k: string, d: string): string => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? (argv[i + 1] ?? d) : d
}
const buildings = Number(arg('buildings', '200000'))
const n = Number(arg('exports', '8'))
const limits = {
  ...appConfig.exports,
  perMember: Number(arg('per-member', String(appConfig.exports.perMember))),
  total: Number(arg('total', String(appConfig.exports.total))),
}
const dataDir = arg('data-dir', '') || fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-export-'))
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-export-tmp-'))

const store = openStore(dataDir, defaultCatalog())
if (!(await isSeeded(store))) {
  process.stderr.write(`seeding ${buildings} buildings into ${dataDir} …\n`)
  await seedDemo(store, { buildings })
}
const app = await buildApp({
  dataDir,
  demo: true,
  store,
  verifier: {
    async verify(token) {
      const expiresAt = new Date(Date.now() + 3_600_000)
      return { memberId: token, sessionId: token, organizationId: 'o', roles: ['stytch_member'], expiresAt }
    },
  },
  exports: { limits, tempDir },
})
await app.listen({ host: '127.0.0.1', port: 0 })
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`

function dirBytes(dir: string): number {
  let total = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size
  return total
}

let peakRss = process.memoryUsage().rss
let peakTemp = 0
const rssAtStart = peakRss
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
  try {
    peakTemp = Math.max(peakTemp, dirBytes(tempDir))
  } catch {
    // a file went between listing and stat
  }
}, 50)

const t0 = performance.now()
let running = n
const results = await Promise.all([
  ...Array.from({ length: n }, async (_, i) => {
    const format = i % 2 === 0 ? 'geojson' : 'gpkg'
    const res = await fetch(`${base}/api/export/buildings?format=${format}`, {
      headers: { authorization: `Bearer member-${i}` },
    })
    const bytes = (await res.arrayBuffer()).byteLength
    running--
    return { format, status: res.status, bytes, ms: performance.now() - t0 }
  }),
  (async () => {
    const latencies: number[] = []
    while (running > 0) {
      const s = performance.now()
      await (await fetch(`${base}/api/health`)).arrayBuffer()
      latencies.push(performance.now() - s)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return latencies
  })(),
])
clearInterval(sampler)
const latencies = (results.pop() as number[]).sort((a, b) => a - b)
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`
for (const r of results as { format: string; status: number; bytes: number; ms: number }[])
  console.log(`${r.format.padEnd(7)} ${r.status} ${mb(r.bytes).padStart(9)} ${(r.ms / 1000).toFixed(1)} s`)
console.log(
  `/api/health during the exports: ${latencies.length} answers, p50 ${Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0)} ms, ` +
    `worst ${Math.round(latencies.at(-1) ?? 0)} ms`,
)
console.log(
  `RSS ${mb(rssAtStart)} → peak ${mb(peakRss)}; GeoPackage temp files peak ${mb(peakTemp)}, left ${mb(dirBytes(tempDir))}`,
)
await app.close()
store.close()
fs.rmSync(tempDir, { recursive: true, force: true })
