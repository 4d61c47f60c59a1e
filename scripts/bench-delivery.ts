/**
 * Alert delivery benchmark: `npm run bench:delivery [-- --members N --runs N]`. Seeds the demo data
 * into a temp data dir, subscribes N members to every rule and severity (SMS, digest window 0),
 * then times: an evaluation whose alerts did not change (what every GET /api/alerts adds), the
 * first evaluation (every demo alert raised: one notice per member and alert), the tick that
 * writes one digest per member to the outbox file, and a re-import raising one new alert
 * (queue + send to every member). Prints medians and the machine load.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { appConfig, operationsConfig } from '../src/shared/config'
import { AlertsEngine } from '../src/server/alerts/AlertsEngine'
import { seedDemo } from '../src/demo/seedDemo'
import { createAlertChannels } from '../src/server/delivery/alertChannels'
import { DeliveryEngine } from '../src/server/delivery/DeliveryEngine'
import { defaultCatalog } from '../src/server/store/catalog'
import { decodeParts, partsToGeometry } from '../src/server/store/geometryCodec'
import { openStore } from '../src/server/store/sqliteStore'
import { zonedInstant } from '../src/shared/time/zonedInstant'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const members = arg('--members', 200)
const runs = arg('--runs', 5)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const ms = (xs: number[]) => `median ${median(xs).toFixed(2)} ms (n=${xs.length})`
const settings = (() => {
  if (!operationsConfig.delivery) throw new Error('config/operations.yaml has no delivery section')
  return operationsConfig.delivery
})()
const demoNow = zonedInstant(appConfig.demo.referenceDate, 12, appConfig.demo.timeZone)

/** One full round on a fresh store; answers the timings of its steps. */
async function round(): Promise<Record<string, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-delivery-'))
  const store = openStore(dir, defaultCatalog())
  try {
    await seedDemo(store, { buildings: 300, steps: [] })
    const subs = store.subscriptions
    const all = {
      rules: operationsConfig.alerts.rules.map((r) => r.id),
      severities: operationsConfig.alerts.severities.map((s) => s.id),
      channel: 'sms' as const,
      quietHours: null,
    }
    for (let i = 0; i < members; i++) await subs.write(`m${i}`, all, { memberId: `m${i}`, ip: null }, 0)
    const alerts = new AlertsEngine(store, operationsConfig.alerts, () => demoNow)
    let clock = Date.now()
    const delivery = new DeliveryEngine({
      settings: { ...settings, digestWindowMinutes: 0, reminderIntervalMinutes: 0 },
      severityLabels: new Map(operationsConfig.alerts.severities.map((s) => [s.id, s.label])),
      store: store.delivery,
      subscriptions: subs,
      recipient: (id) => ({ phone: `+1505555${id.slice(1).padStart(4, '0')}`, email: null, active: true }),
      send: createAlertChannels({ dataDir: dir, env: {}, print: () => undefined }),
      baseUrl: 'http://127.0.0.1:8080',
      timeZone: appConfig.demo.timeZone,
      now: () => clock,
    })
    const timed = async (f: () => unknown) => {
      const t = performance.now()
      await f()
      return performance.now() - t
    }
    const first = await timed(async () => delivery.observe(await alerts.evaluate()))
    const firstSend = await timed(() => delivery.tick((clock += 60_000)))
    const unchanged = await timed(async () => delivery.observe(await alerts.evaluate()))
    // A copy of a hotspot that raises an alert: a new feature id, so a new alert for every member.
    const raising = (await alerts.evaluate()).alerts.find(
      (a) => a.ruleId === 'young-hotspot-near-distribution',
    )
    const hotspots = await store.allFeatures('thermal_hot_spots')
    const source = hotspots.find((f) => f.id === raising?.hazard.id)
    if (!source) throw new Error('no hotspot raises an alert')
    const asInput = (f: (typeof hotspots)[number]) => ({
      geometry: partsToGeometry(decodeParts(f.geom), 'point'),
      properties: f.properties,
    })
    await store.replaceDataset('thermal_hot_spots', [...hotspots.map(asInput), asInput(source)])
    const newAlert = await timed(async () => delivery.observe(await alerts.evaluate()))
    const newSend = await timed(() => delivery.tick((clock += 60_000)))
    const lines = fs
      .readFileSync(path.join(dir, 'outbox', 'sms.jsonl'), 'utf8')
      .trim()
      .split('\n').length
    return { first, firstSend, unchanged, newAlert, newSend, lines }
  } finally {
    store.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const results: Record<string, number>[] = []
for (let i = 0; i < runs; i++) results.push(await round())
const col = (k: string) => results.map((r) => r[k] ?? NaN)
console.log(`alert delivery bench — ${members} members subscribed to every rule, SMS to the outbox file`)
console.log(`first evaluation (every demo alert raised, notices queued):  ${ms(col('first'))}`)
console.log(`tick sending one digest per member:                          ${ms(col('firstSend'))}`)
console.log(`evaluation with no change (added to each GET /api/alerts):    ${ms(col('unchanged'))}`)
console.log(`re-import raising one alert, queued for every member:        ${ms(col('newAlert'))}`)
console.log(`tick sending that alert to every member:                     ${ms(col('newSend'))}`)
console.log(`outbox lines per round: ${median(col('lines'))} (expected ${2 * members})`)
console.log(
  `load average: ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`,
)
