import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feedsConfig, type FeedsConfig } from '../../src/shared/config'
import { buildApp } from '../../src/server/app'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { AUTH, tempDir, testVerifier } from './testApp'

// FEEDS=on: the app polls its enabled feeds by itself once ready; without it, never.
const kml = fs.readFileSync(
  path.resolve(import.meta.dirname, '../fixtures/feeds/hms_smoke20261006_trimmed.kml'),
)
let server: http.Server
let base = ''
const hits: string[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(200, { 'Content-Type': 'application/vnd.google-earth.kml+xml' })
    res.end(kml)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => server.close())

function config(): FeedsConfig {
  const smoke = feedsConfig.feeds.find((f) => f.id === 'hms-smoke') as FeedsConfig['feeds'][number]
  return {
    ...feedsConfig,
    // Offline: none of the shipped grid feeds (NOAA) is polled.
    gridFeeds: [],
    feeds: [
      { ...smoke, filter: { bbox: 'none' }, source: { url: `${base}/hms_smoke\${YYYY}\${MM}\${DD}.kml` } },
    ],
  }
}

async function appWith(feeds: boolean) {
  const dataDir = tempDir('emberline-feeds-schedule-')
  const store = await openDataDirStore(dataDir, defaultCatalog())
  const app = await buildApp({
    dataDir,
    demo: false,
    store,
    verifier: testVerifier,
    feeds: feeds ? { config: config(), now: () => Date.parse('2026-10-07T01:00:00Z') } : false,
  })
  return {
    app,
    store,
    async close() {
      await app.close()
      await store.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

describe('scheduled polling', () => {
  it('with FEEDS=on the ready app polls each enabled feed (daily file named from the clock)', async () => {
    const t = await appWith(true)
    try {
      await t.app.ready()
      await expect.poll(async () => (await t.store.info('observed_smoke')).count, { timeout: 20_000 }).toBe(4)
      expect(hits).toContain('/hms_smoke20261007.kml')
      // The rows are swapped in before the run's freshness is written (two writes): wait for the run's end.
      const feeds = async () =>
        (await t.app.inject({ url: '/api/feeds', headers: AUTH })).json<{
          polling: boolean
          feeds: { id: string; state: string }[]
        }>()
      await expect.poll(async () => (await feeds()).feeds[0]?.state, { timeout: 20_000 }).toBe('ok')
      const body = await feeds()
      expect(body.polling).toBe(true)
      expect(body.feeds[0]).toMatchObject({ id: 'hms-smoke', state: 'ok' })
    } finally {
      await t.close()
    }
  })

  it('without it nothing is polled and /api/feeds says so', async () => {
    const t = await appWith(false)
    try {
      await t.app.ready()
      expect(t.app.feeds.enabled).toBe(false)
      const body = (await t.app.inject({ url: '/api/feeds', headers: AUTH })).json<{
        polling: boolean
        feeds: { id: string; state: string }[]
      }>()
      expect(body.polling).toBe(false)
      expect(body.feeds.every((f) => f.state === 'never')).toBe(true)
      expect((await t.store.info('observed_smoke')).count).toBe(0)
    } finally {
      await t.close()
    }
  })
})
