/**
 * Alert rules benchmark: `npm run bench:alerts [-- --runs N --buildings N]`. Seeds the demo data
 * into a temp data dir (buildings are not read by any rule, so a small count is used), then times
 * all configured rules: cold (decode every dataset + evaluate every rule, a fresh engine each run)
 * and warm (cached: nothing changed). Prints alerts per rule and the machine load.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { appConfig, operationsConfig } from '../src/shared/config'
import { AlertsEngine } from '../src/server/alerts/AlertsEngine'
import { seedDemo } from '../src/demo/seedDemo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { zonedInstant } from '../src/shared/time/zonedInstant'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const runs = arg('--runs', 10)
const buildings = arg('--buildings', 1000)
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!
const fmt = (xs: number[]): string =>
  `p50 ${pct(xs, 50).toFixed(1)} ms  max ${Math.max(...xs).toFixed(1)} ms  (n=${xs.length})`

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-alerts-'))
const store = openStore(dir, defaultCatalog())
try {
  await seedDemo(store, { buildings, steps: [] })
  const now = zonedInstant(appConfig.demo.referenceDate, 12, appConfig.demo.timeZone)
  const cold: number[] = []
  let engine = new AlertsEngine(store, operationsConfig.alerts, () => now)
  let counts = new Map<string, number>()
  for (let i = 0; i < runs; i++) {
    engine = new AlertsEngine(store, operationsConfig.alerts, () => now)
    const t = performance.now()
    counts = (await engine.evaluate()).counts
    cold.push(performance.now() - t)
  }
  const warm: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await engine.evaluate()
    warm.push(performance.now() - t)
  }
  console.log(`alerts bench — ${operationsConfig.alerts.rules.length} rules on the demo data`)
  for (const [rule, n] of counts) console.log(`  ${rule.padEnd(48)} ${n} alerts`)
  console.log(`all rules, cold (decode + evaluate): ${fmt(cold)}`)
  console.log(`all rules, warm (cached):            ${fmt(warm)}`)
  console.log(
    `load average: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  )
} finally {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
}
