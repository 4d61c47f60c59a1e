import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { downloadFeed, type DownloadOptions } from './downloadFeed'

let server: http.Server
let base = ''
let failuresLeft = 0
const hits: string[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    if (req.url === '/flaky' && failuresLeft-- > 0) {
      res.writeHead(503)
      return res.end('busy')
    }
    if (req.url === '/missing') {
      res.writeHead(404)
      return res.end('no')
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'Content-Type': 'text/csv' })
      return res.end('x'.repeat(5000))
    }
    if (req.url === '/silent') return // never answers
    if (req.headers['if-modified-since'] === 'Wed, 01 Jan 2025 00:00:00 GMT') {
      res.writeHead(304)
      return res.end()
    }
    res.writeHead(200, { ETag: '"e"', 'Last-Modified': 'Wed, 01 Jan 2025 00:00:00 GMT' })
    res.end('ok')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const waits: number[] = []
const opts = (o: Partial<DownloadOptions> = {}): DownloadOptions => ({
  timeoutMs: 5000,
  maxBytes: 1000,
  headers: {},
  retries: 2,
  backoffMs: 100,
  sleep: async (ms) => void waits.push(ms),
  ...o,
})

describe('downloadFeed', () => {
  it('answers the body with its validators, and not-modified to a conditional GET', async () => {
    expect(await downloadFeed(`${base}/ok`, opts())).toEqual({
      status: 'ok',
      text: 'ok',
      etag: '"e"',
      lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT',
    })
    expect(await downloadFeed(`${base}/ok`, opts({ lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' }))).toEqual(
      { status: 'not-modified' },
    )
  })
  it('retries 5xx with doubling backoff, and gives up after the retries', async () => {
    waits.length = 0
    failuresLeft = 2
    expect((await downloadFeed(`${base}/flaky`, opts())).status).toBe('ok')
    expect(waits).toEqual([100, 200])
    failuresLeft = 5
    await expect(downloadFeed(`${base}/flaky`, opts())).rejects.toThrow('HTTP 503')
  })
  it('does not retry a 4xx; refuses a body over the size limit; times out', async () => {
    const before = hits.length
    await expect(downloadFeed(`${base}/missing`, opts())).rejects.toThrow('HTTP 404')
    expect(hits.length).toBe(before + 1)
    await expect(downloadFeed(`${base}/big`, opts())).rejects.toThrow(/limit of 1000/)
    await expect(downloadFeed(`${base}/silent`, opts({ timeoutMs: 300, retries: 0 }))).rejects.toThrow(
      /no answer within 0.3 s/,
    )
  })
})
