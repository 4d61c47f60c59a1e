// npm run bench:import-signin [-- --buildings N]
// Sign-in and reads while a large import runs into the live store: starts the real server on a
// temporary DATA_DIR, imports N buildings (default 1,000,000) with `npm run import` in another
// process, and meanwhile signs members in through the SDK endpoints (password → SMS code from the
// outbox → session) and reads records and tiles. Prints sign-ins ok/failed, latencies (median,
// p95, p99, max) and the import's wall time. Target: 100 % of sign-ins succeed, read p99 ≤ 250 ms.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { identitySettings } from '../src/server/identity'
import { createMember } from '../src/server/identity/memberAdmin'
import { openAccountsDb } from '../src/server/store/accountsDb'
import { createIdentityStore } from '../src/server/store/identityStore'
import { sdkFetch, signInBySms } from '../tests/support/smsSignIn'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const BUILDINGS = arg('buildings', 1_000_000)
const MEMBERS = 40
const PASSWORD = 'Bench-import-Passw0rd!'
const root = path.resolve(import.meta.dirname, '..')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-import-'))
const s = identitySettings

/** Deterministic building footprints over New Mexico, one GeoJSON Feature per line. */
function writeBuildings(file: string, n: number): void {
  let seed = 20261124
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const fd = fs.openSync(file, 'w')
  let chunk: string[] = []
  for (let i = 0; i < n; i++) {
    const lon = -108.9 + rnd() * 5.8
    const lat = 31.5 + rnd() * 5.4
    const w = 0.0001 + rnd() * 0.0002
    const h = 0.0001 + rnd() * 0.0002
    const ring = [
      [lon, lat],
      [lon + w, lat],
      [lon + w, lat + h],
      [lon, lat + h],
      [lon, lat],
    ].map(([x, y]) => [Number((x as number).toFixed(6)), Number((y as number).toFixed(6))])
    chunk.push(
      JSON.stringify({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [ring] },
        properties: { area_ft2: Math.round(w * h * 1.2e10) },
      }),
    )
    if (chunk.length === 10_000) {
      fs.writeSync(fd, `${chunk.join('\n')}\n`)
      chunk = []
    }
  }
  if (chunk.length) fs.writeSync(fd, `${chunk.join('\n')}\n`)
  fs.closeSync(fd)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

function run(script: string, argv: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...argv], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
}
const fmt = (xs: number[]) =>
  xs.length === 0
    ? 'none'
    : `median ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms, p99 ${quantile(xs, 0.99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length})`

async function main(): Promise<void> {
  const file = path.join(dataDir, 'buildings.ndjson')
  process.stdout.write(`writing ${BUILDINGS.toLocaleString('en-US')} buildings … `)
  writeBuildings(file, BUILDINGS)
  console.log(`${(fs.statSync(file).size / 1e6).toFixed(0)} MB`)

  // Members with their own phones (the SMS caps are per member and per phone per hour).
  const accounts = openAccountsDb(dataDir)
  const members = createIdentityStore(accounts)
  const emails: string[] = []
  for (let i = 0; i < MEMBERS; i++) {
    const email = `bench${i}@emberline.test`
    const phone = `+1505555${String(1000 + i).padStart(4, '0')}`
    await createMember(
      members,
      s,
      { email, name: `Bench ${i}`, phone, password: PASSWORD, roles: ['stytch_member'] },
      Date.now(),
    )
    emails.push(email)
  }
  accounts.close()

  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const server = run('src/server/main.ts', [], {
    DATA_DIR: dataDir,
    PORT: String(port),
    SEED: 'off',
    LOG_LEVEL: 'warn',
  })
  let serverErr = ''
  server.stderr?.on('data', (d: Buffer) => (serverErr += d.toString()))
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error(`server did not start:\n${serverErr}`)
    await new Promise((r) => setTimeout(r, 100))
  }

  const sdk = sdkFetch(url)
  const signIn = (email: string) => signInBySms(sdk, { email, password: PASSWORD, dataDir })

  const first = await signIn(emails[0] as string)
  if (first.failure) throw new Error(`sign-in before the import failed: ${first.failure}`)
  const auth = { authorization: `Bearer ${first.token}` }

  console.log(`importing into the live store (${url}) while signing in and reading …`)
  const importStart = performance.now()
  const importer = run('scripts/import.ts', ['buildings', file, '--data-dir', dataDir], {})
  let importErr = ''
  importer.stderr?.on('data', (d: Buffer) => (importErr += d.toString()))
  let importing = true
  const importDone = new Promise<number>((resolve) =>
    importer.on('exit', (code) => {
      importing = false
      resolve(code ?? 1)
    }),
  )

  const signins: number[] = []
  const failures: string[] = []
  const reads: number[] = []
  let m = 1
  const signLoop = (async () => {
    while (importing) {
      const r = await signIn(emails[m++ % MEMBERS] as string)
      if (!r.failure) signins.push(r.ms)
      else failures.push(r.failure)
      await new Promise((res) => setTimeout(res, 200))
    }
  })()
  const readLoop = (async () => {
    let i = 0
    while (importing) {
      const target =
        i++ % 2 === 0
          ? `${url}/api/data/buildings/records?limit=100&offset=${(i * 37) % 1000}`
          : `${url}/api/tiles/buildings/mvt/10/${200 + (i % 8)}/${400 + (i % 8)}`
      const t0 = performance.now()
      const res = await fetch(target, { headers: auth })
      await res.arrayBuffer()
      reads.push(performance.now() - t0)
      if (res.status >= 500) failures.push(`read ${res.status}`)
      await new Promise((res2) => setTimeout(res2, 20))
    }
  })()
  const code = await importDone
  const importMs = performance.now() - importStart
  await Promise.all([signLoop, readLoop])
  server.kill('SIGTERM')

  console.log(
    `import: exit ${code}, ${(importMs / 1000).toFixed(1)} s wall for ${BUILDINGS.toLocaleString('en-US')} buildings`,
  )
  if (code !== 0) console.log(importErr.slice(-2000))
  const total = signins.length + failures.filter((f) => !f.startsWith('read')).length
  console.log(
    `sign-ins during the import: ${signins.length} of ${total} succeeded (${total ? ((100 * signins.length) / total).toFixed(1) : '0'} %)`,
  )
  console.log(`  sign-in (password + SMS send + SMS authenticate): ${fmt(signins)}`)
  console.log(`  reads (records pages and building tiles): ${fmt(reads)}`)
  if (failures.length) console.log(`  failures: ${[...new Set(failures)].join(', ')}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
}

main().catch((err: unknown) => {
  console.error(err)
  fs.rmSync(dataDir, { recursive: true, force: true })
  process.exit(1)
})
