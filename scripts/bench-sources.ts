/**
 * Source proxy benchmark: `npm run bench:sources [-- --warm 2000 --cold 300]`.
 *
 * A local upstream on 127.0.0.1 serves 256-px PNG tiles (max-age=3600) through an xyz source with
 * `allowPrivateNetwork: true`; the app listens on 127.0.0.1 and is asked over real HTTP (keep-alive).
 * 1. Warm: one tile, already cached, asked `--warm` times: p95 (target ≤ 5 ms).
 * 2. Cold: `--cold` distinct tiles straight from the upstream, then the same number of other
 *    distinct tiles through the proxy: the proxy's added time at the median and p95 (target ≤ 15 ms).
 * 3. 50 concurrent identical cold requests: upstream requests made (target 1).
 * Each phase also prints the process CPU time per request (process.cpuUsage, user + system; the
 * client, the app and the upstream share this one process) and the load average, so a run on a
 * busy machine can be judged by the work done rather than by wall time alone.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildApp } from '../src/server/app'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { summarize } from './bench/stats'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const WARM = arg('--warm', 2000)
const COLD = arg('--cold', 300)
const TOKEN = 'bench-token'
const TILE = Buffer.alloc(20_000, 7)

/** CPU milliseconds (user + system) of this process since `since`. */
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since)
  return (d.user + d.system) / 1000
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    http
      .get(url, { agent, headers }, (res) => {
        res.resume()
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${url}: ${res.statusCode}`)),
        )
      })
      .on('error', reject)
  })
}

async function main(): Promise<void> {
  let upstreamRequests = 0
  const upstream = http.createServer((req, res) => {
    upstreamRequests++
    const delay = req.url?.startsWith('/slow/') ? 100 : 0
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' })
      res.end(TILE)
    }, delay)
  })
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
  const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-sources-'))
  const store = openStore(dataDir, defaultCatalog())
  const session = {
    memberId: 'm',
    sessionId: 's',
    organizationId: 'o',
    roles: ['stytch_member'],
    expiresAt: new Date(Date.now() + 3_600_000),
  }
  const app = await buildApp({
    dataDir,
    demo: true,
    store,
    verifier: { verify: async (c) => (c === TOKEN ? session : null) },
    sources: {
      sources: ['tiles', 'slow'].map((kind) => ({
        id: kind,
        type: 'xyz' as const,
        url: `${up}/${kind}/{z}/{x}/{y}.png`,
        attribution: 'bench',
        minzoom: 0,
        maxzoom: 22,
        allowPrivateNetwork: true,
      })),
    },
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const proxy = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const auth = { authorization: `Bearer ${TOKEN}` }

  await get(`${proxy}/api/sources/tiles/tiles/10/1/1`, auth)
  for (let i = 0; i < 200; i++) await get(`${proxy}/api/sources/tiles/tiles/10/1/1`, auth)
  const warm: number[] = []
  let since = process.cpuUsage()
  for (let i = 0; i < WARM; i++) warm.push(await get(`${proxy}/api/sources/tiles/tiles/10/1/1`, auth))
  const warmCpu = cpuMs(since) / WARM

  const direct: number[] = []
  const cold: number[] = []
  since = process.cpuUsage()
  for (let i = 0; i < COLD; i++) direct.push(await get(`${up}/tiles/16/${i}/2.png`))
  const directCpu = cpuMs(since) / COLD
  since = process.cpuUsage()
  for (let i = 0; i < COLD; i++) cold.push(await get(`${proxy}/api/sources/tiles/tiles/16/${i}/3`, auth))
  const coldCpu = cpuMs(since) / COLD

  upstreamRequests = 0
  await Promise.all(Array.from({ length: 50 }, () => get(`${proxy}/api/sources/slow/tiles/12/5/5`, auth)))
  const coalesced = upstreamRequests

  const w = summarize(warm)
  const d = summarize(direct)
  const c = summarize(cold)
  console.log(
    `warm cached tile (${WARM}): p50 ${w.p50.toFixed(2)} ms, p95 ${w.p95.toFixed(2)} ms (target p95 ≤ 5 ms)`,
  )
  console.log(`upstream direct (${COLD}): p50 ${d.p50.toFixed(2)} ms, p95 ${d.p95.toFixed(2)} ms`)
  console.log(`cold proxied   (${COLD}): p50 ${c.p50.toFixed(2)} ms, p95 ${c.p95.toFixed(2)} ms`)
  console.log(
    `proxy adds: ${(c.p50 - d.p50).toFixed(2)} ms at p50, ${(c.p95 - d.p95).toFixed(2)} ms at p95 (target ≤ 15 ms)`,
  )
  console.log(`50 concurrent identical cold requests → ${coalesced} upstream request(s) (target 1)`)
  console.log(
    `CPU per request (process user+system): warm ${warmCpu.toFixed(3)} ms, upstream direct ${directCpu.toFixed(3)} ms, ` +
      `cold proxied ${coldCpu.toFixed(3)} ms (proxy adds ${(coldCpu - directCpu).toFixed(3)} ms)`,
  )
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  )

  await app.close()
  store.close()
  agent.destroy()
  upstream.closeAllConnections()
  upstream.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
