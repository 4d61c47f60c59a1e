// npm run -s bench:fire-what-if: the "What if a fire starts here?" API on the seeded demo (every seed
// step: fuels, elevation, hourly winds), end to end through app.inject — the first answer (landscape
// read, worker start) and then the median of repeated what-ifs at demo facilities (docs/fire.md).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildApp } from '../src/server/app'
import { seedDemo } from '../src/demo/seedDemo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { decodeParts } from '../src/server/store/geometryCodec'
import type { SessionVerifier } from '../src/server/auth/sessionVerifier'
import type { FireWhatIfResult } from '../src/shared/fireSim/wireTypes'

const verifier: SessionVerifier = {
  async verify() {
    return {
      memberId: 'bench',
      sessionId: 'bench',
      organizationId: 'bench',
      roles: ['stytch_member'],
      expiresAt: new Date(Date.now() + 3_600_000),
    }
  },
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-whatif-'))
  const store = openStore(dataDir, defaultCatalog())
  const t0 = performance.now()
  await seedDemo(store, { buildings: Number(process.env.BUILDINGS ?? 50_000) })
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const app = await buildApp({ dataDir, demo: true, store, verifier })
  const headers = { authorization: 'Bearer x' }
  const facilities = (await store.allFeatures('critical_infrastructure')).slice(0, 40)
  const rows: { ms: number; r: FireWhatIfResult }[] = []
  for (const f of facilities) {
    const p = decodeParts(f.geom)[0]![0]![0]!
    const lon = p[0]! - 300 / (111_320 * Math.cos((p[1]! * Math.PI) / 180))
    const start = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: '/api/fire/simulate',
      headers,
      payload: { lon, lat: p[1], hours: 6 },
    })
    const ms = performance.now() - start
    if (res.statusCode === 200) rows.push({ ms, r: res.json<FireWhatIfResult>() })
    if (rows.length >= 11) break
  }
  if (rows.length === 0) throw new Error('no what-if answered 200')
  const [first, ...rest] = rows
  const f = first!
  console.log(
    `first what-if: ${f.ms.toFixed(0)} ms end to end (simulation ${f.r.timings.simulateMs} ms, inside ${f.r.timings.insideMs} ms, ${Math.round(f.r.burnedAcres)} acres)`,
  )
  console.log(
    `next ${rest.length}: median ${median(rest.map((x) => x.ms)).toFixed(0)} ms end to end, max ${Math.max(...rest.map((x) => x.ms)).toFixed(0)} ms; ` +
      `simulation median ${median(rest.map((x) => x.r.timings.simulateMs))} ms, max ${Math.max(...rest.map((x) => x.r.timings.simulateMs))} ms; ` +
      `inside median ${median(rest.map((x) => x.r.timings.insideMs))} ms; acres median ${Math.round(median(rest.map((x) => x.r.burnedAcres)))}, max ${Math.round(Math.max(...rest.map((x) => x.r.burnedAcres)))}`,
  )
  await app.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
