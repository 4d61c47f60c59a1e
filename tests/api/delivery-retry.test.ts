import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TestApp } from './testApp'
import { assetVertex, auth, deliveryApp, hotspot, importWith } from './deliveryApp'

// A failing SMS gateway (EMBERLINE_SMS_WEBHOOK_URL): retried with the configured backoff (30 s,
// doubling), every attempt logged, and the evaluation never waits for it.
const SECOND = 1000

interface Gateway {
  url: string
  bodies: { text: string; alertIds: string[] }[]
  /** Status answered to each next request (200 once the list is used up). */
  answers: number[]
  /** While set, requests are held open until release() is called. */
  hold: boolean
  release: () => void
  held: Promise<void>
  close: () => Promise<void>
}

async function startGateway(): Promise<Gateway> {
  let releaseHeld = () => undefined as void
  let markHeld = () => undefined as void
  const gw: Gateway = {
    url: '',
    bodies: [],
    answers: [],
    hold: false,
    release: () => releaseHeld(),
    held: Promise.resolve(),
    close: () => new Promise((done) => server.close(() => done())),
  }
  gw.held = new Promise((done) => (markHeld = done))
  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    req.on('end', () => {
      gw.bodies.push(JSON.parse(raw) as Gateway['bodies'][number])
      const answer = () => res.writeHead(gw.answers.shift() ?? 200).end()
      if (!gw.hold) return answer()
      releaseHeld = answer
      markHeld()
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  gw.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`
  return gw
}

let t: TestApp
let gateway: Gateway
let near: [number, number]

beforeAll(async () => {
  gateway = await startGateway()
  t = await deliveryApp({ EMBERLINE_SMS_WEBHOOK_URL: gateway.url })
  await t.app.ready()
  await t.app.alertsEngine.evaluate() // the baseline, as the schedule's first evaluation
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/me/alert-subscription',
    headers: auth('subscribed'),
    payload: { rules: ['young-hotspot-near-distribution'], severities: ['warning'], channel: 'sms' },
  })
  expect(res.statusCode).toBe(200)
  near = await assetVertex(t, 'young-hotspot-near-distribution')
}, 120_000)

afterAll(async () => {
  await t.close()
  await gateway.close()
})

const delivery = () => {
  if (!t.app.alertDelivery) throw new Error('delivery is not configured')
  return t.app.alertDelivery
}

async function log() {
  const res = await t.app.inject({ url: '/api/admin/alert-deliveries?limit=1000', headers: auth('admin') })
  return res
    .json<{
      entries: { event: string; attempt: number | null; detail: string | null; alertIds: string[] }[]
    }>()
    .entries.reverse()
}

it('retries a failing gateway with backoff and logs every attempt', async () => {
  gateway.answers = [503, 502]
  await importWith(t.store, 'thermal_hot_spots', 'point', [hotspot(near, 1)])
  await t.app.alertsEngine.evaluate()
  const t0 = Date.now() + 3 * 60 * SECOND // past the digest window
  await delivery().tick(t0)
  expect(gateway.bodies).toHaveLength(1)
  await delivery().tick(t0 + 29 * SECOND)
  expect(gateway.bodies).toHaveLength(1) // the first retry waits 30 s
  await delivery().tick(t0 + 30 * SECOND)
  expect(gateway.bodies).toHaveLength(2)
  await delivery().tick(t0 + 89 * SECOND)
  expect(gateway.bodies).toHaveLength(2) // the second waits twice as long
  await delivery().tick(t0 + 90 * SECOND)
  expect(gateway.bodies).toHaveLength(3)
  expect(new Set(gateway.bodies.map((b) => b.text)).size).toBe(1)
  expect(gateway.bodies[0]?.text).toContain('TEST-1 hotspot')

  const attempts = (await log()).filter((e) => ['failed', 'sent'].includes(e.event))
  expect(attempts.map((e) => [e.event, e.attempt])).toEqual([
    ['failed', 1],
    ['failed', 2],
    ['sent', 3],
  ])
  expect(attempts[0]?.detail).toContain('the message gateway answered 503; retry at')
  expect(attempts[1]?.detail).toContain('answered 502')
})

it('gives up after the configured attempts, logged', async () => {
  gateway.answers = [500, 500, 500, 500, 500]
  await importWith(t.store, 'thermal_hot_spots', 'point', [hotspot(near, 2)])
  await t.app.alertsEngine.evaluate()
  const t0 = Date.now() + 10 * 60 * SECOND
  for (const s of [0, 30, 90, 210, 450]) await delivery().tick(t0 + s * SECOND)
  const last = (await log()).filter((e) =>
    e.alertIds.some((id) => gateway.bodies.at(-1)?.alertIds.includes(id)),
  )
  expect(last.map((e) => e.event)).toEqual(['queued', 'failed', 'failed', 'failed', 'failed', 'gave_up'])
})

it('does not hold up the evaluation or the alerts API while the gateway hangs', async () => {
  gateway.hold = true
  await importWith(t.store, 'thermal_hot_spots', 'point', [hotspot(near, 3)])
  await t.app.alertsEngine.evaluate()
  let finished = false
  const ticking = delivery()
    .tick(Date.now() + 20 * 60 * SECOND)
    .then(() => (finished = true))
  await gateway.held // the gateway has the request and does not answer
  const res = await t.app.inject({ url: '/api/alerts', headers: auth('subscribed') })
  expect(res.statusCode).toBe(200)
  expect((await t.app.alertsEngine.evaluate()).alerts.length).toBeGreaterThan(0)
  expect(finished).toBe(false)
  gateway.release()
  await ticking
  expect((await log()).at(-1)?.event).toBe('sent')
})
