import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feedsConfig, type FeedsConfig } from '../../shared/config'
import { buildApp } from '../app'
import type { SessionVerifier } from '../auth/sessionVerifier'
import { defaultCatalog } from '../store/catalog'
import { openStore } from '../store/sqliteStore'
import { LeaderTasks, type Leadership } from './leadership'

// Scheduled work (feed polling, the delivery schedule) runs only while `app.leader` leads, stops
// when the leadership is lost and starts again when it comes back.

const kml = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../../tests/fixtures/feeds/hms_smoke20261006_trimmed.kml'),
)
let server: http.Server
let base = ''
let hits = 0

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits++
    res.writeHead(200, { 'Content-Type': 'application/vnd.google-earth.kml+xml' })
    res.end(kml)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => server.close())

const noSessions: SessionVerifier = { verify: async () => null }

/** A leadership the test hands over and takes back. */
function toggleLeader(): Leadership & { lead(): void; follow(): void } {
  const tasks = new LeaderTasks(() => undefined)
  return {
    get isLeader() {
      return tasks.isLeader
    },
    whileLeader: (task) => tasks.add(task),
    close: async () => tasks.follow(),
    lead: () => tasks.lead(),
    follow: () => tasks.follow(),
  }
}

describe('scheduled work follows the leadership', () => {
  it('polls feeds only while leading', async () => {
    const smoke = feedsConfig.feeds.find((f) => f.id === 'hms-smoke') as FeedsConfig['feeds'][number]
    const config: FeedsConfig = {
      ...feedsConfig,
      gridFeeds: [],
      feeds: [{ ...smoke, filter: { bbox: 'none' }, source: { url: `${base}/smoke.kml` } }],
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-leader-'))
    const store = openStore(dataDir, defaultCatalog())
    const leader = toggleLeader()
    const app = await buildApp({
      dataDir,
      demo: false,
      store,
      verifier: noSessions,
      feeds: { config, now: () => Date.parse('2026-10-07T01:00:00Z') },
      cluster: { leader },
    })
    try {
      await app.ready()
      await new Promise((r) => setTimeout(r, 500))
      expect(hits).toBe(0)
      expect(store.info('observed_smoke').count).toBe(0)
      leader.lead()
      await expect.poll(() => store.info('observed_smoke').count, { timeout: 20_000 }).toBe(4)
      expect(hits).toBe(1)
      // Lost and regained: polling starts again (the first feed at once).
      leader.follow()
      leader.lead()
      await expect.poll(() => hits, { timeout: 20_000 }).toBe(2)
    } finally {
      await app.close()
      store.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('requeues the deliveries a dead leader was sending each time this server takes over', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-leader-'))
    const store = openStore(dataDir, defaultCatalog())
    let requeues = 0
    const delivery = store.delivery
    const requeue = delivery.requeueInterrupted.bind(delivery)
    delivery.requeueInterrupted = () => {
      requeues++
      return requeue()
    }
    const leader = toggleLeader()
    const app = await buildApp({ dataDir, demo: false, store, verifier: noSessions, cluster: { leader } })
    try {
      await app.ready()
      expect(requeues).toBe(0)
      leader.lead()
      await expect.poll(() => requeues).toBe(1)
      leader.follow()
      leader.lead()
      await expect.poll(() => requeues).toBe(2)
    } finally {
      await app.close()
      store.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
