import { describe, expect, it } from 'vitest'
import type { UpstreamAnswer } from './fetchUpstream'
import { freshnessOf, SourceCache } from './sourceCache'

// The cache over a scripted upstream and a simulated clock: what it asks upstream, and when.
function upstream(answers: UpstreamAnswer[]) {
  const asked: Record<string, string>[] = []
  return {
    asked,
    fetch: async (conditional: Record<string, string>) => {
      asked.push(conditional)
      const next = answers.shift()
      if (!next) throw new Error('upstream down')
      return next
    },
  }
}
const ok = (headers: Record<string, string>, body = 'tile'): UpstreamAnswer => ({
  status: 200,
  headers: { 'content-type': 'image/png', ...headers },
  body: Buffer.from(body),
})

describe('freshnessOf', () => {
  it('reads s-maxage over max-age, Expires against Date, and no-store / private / no-cache', () => {
    expect(freshnessOf({ 'cache-control': 'public, max-age=60, s-maxage=30' }, 0)).toEqual({
      seconds: 30,
      noStore: false,
    })
    expect(freshnessOf({ 'cache-control': 'max-age=60' }, 0)).toEqual({ seconds: 60, noStore: false })
    const date = 'Fri, 27 Nov 2026 12:00:00 GMT'
    expect(freshnessOf({ date, expires: 'Fri, 27 Nov 2026 12:05:00 GMT' }, 0)).toEqual({
      seconds: 300,
      noStore: false,
    })
    expect(freshnessOf({ 'cache-control': 'no-store' }, 0)).toEqual({ seconds: 0, noStore: true })
    expect(freshnessOf({ 'cache-control': 'private, max-age=600' }, 0)).toEqual({ seconds: 0, noStore: true })
    expect(freshnessOf({ 'cache-control': 'no-cache, max-age=600' }, 0)).toEqual({
      seconds: 0,
      noStore: false,
    })
    expect(freshnessOf({}, 0)).toEqual({ seconds: 0, noStore: false })
  })
})

describe('SourceCache', () => {
  it('serves a fresh answer without asking, then revalidates with If-None-Match and keeps the body on 304', async () => {
    let now = 1_000_000
    const cache = new SourceCache({ now: () => now })
    const up = upstream([
      ok({ 'cache-control': 'max-age=10', etag: '"a"' }),
      { status: 304, headers: { 'cache-control': 'max-age=10' }, body: Buffer.alloc(0) },
    ])
    expect((await cache.get('k', up.fetch)).cache).toBe('miss')
    now += 9_000
    expect((await cache.get('k', up.fetch)).cache).toBe('hit')
    expect(up.asked).toHaveLength(1)
    now += 2_000
    const revalidated = await cache.get('k', up.fetch)
    expect(revalidated.cache).toBe('revalidated')
    expect(revalidated.answer.body.toString()).toBe('tile')
    expect(up.asked[1]).toEqual({ 'if-none-match': '"a"' })
    now += 5_000
    expect((await cache.get('k', up.fetch)).cache).toBe('hit')
  })

  it('revalidates with If-Modified-Since when there is no ETag; serves stale on failure and on a 5xx', async () => {
    let now = 0
    const cache = new SourceCache({ now: () => now })
    const lastModified = 'Fri, 27 Nov 2026 10:00:00 GMT'
    const up = upstream([
      ok({ 'last-modified': lastModified }),
      { status: 503, headers: {}, body: Buffer.alloc(0) },
    ])
    await cache.get('k', up.fetch)
    now += 1
    expect((await cache.get('k', up.fetch)).cache).toBe('stale')
    expect(up.asked[1]).toEqual({ 'if-modified-since': lastModified })
    expect((await cache.get('k', up.fetch)).cache).toBe('stale') // upstream down: throws, stale served
    await expect(cache.get('other', up.fetch)).rejects.toThrow('upstream down')
  })

  it('keeps no more than maxBytes of bodies (least recently used dropped)', async () => {
    const cache = new SourceCache({ maxBytes: 3 * (1000 + 256) })
    const big = 'x'.repeat(1000)
    for (const k of ['a', 'b', 'c', 'd'])
      await cache.get(k, upstream([ok({ 'cache-control': 'max-age=60' }, big)]).fetch)
    const up = upstream([ok({ 'cache-control': 'max-age=60' }, big)])
    expect((await cache.get('d', up.fetch)).cache).toBe('hit')
    expect((await cache.get('a', up.fetch)).cache).toBe('miss')
  })
})
