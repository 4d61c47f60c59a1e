import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MitigationApiError, type MitigationRanking } from './mitigationApi'
import { createRankingLoader } from './rankingLoader'

const ranking = (version: number) => ({ version }) as MitigationRanking

describe('createRankingLoader', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  function setup(load: (url: string, signal: AbortSignal) => Promise<MitigationRanking>) {
    const results: [string, number][] = []
    const errors: [string, string][] = []
    const loader = createRankingLoader({
      load,
      delayMs: 300,
      onResult: (url, r) => results.push([url, r.version]),
      onError: (url, e) => errors.push([url, e.message]),
    })
    return { loader, results, errors }
  }

  it('loads the first ranking at once, then waits for the weights to settle (only the last is fetched)', async () => {
    const load = vi.fn((url: string) => Promise.resolve(ranking(url.length)))
    const { loader, results } = setup(load)
    loader.request('/a')
    await vi.advanceTimersByTimeAsync(0)
    expect(results).toEqual([['/a', 2]])
    loader.request('/bb')
    await vi.advanceTimersByTimeAsync(200)
    loader.request('/ccc')
    await vi.advanceTimersByTimeAsync(299)
    expect(load).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(load.mock.calls.map((c) => c[0])).toEqual(['/a', '/ccc'])
    expect(results).toEqual([
      ['/a', 2],
      ['/ccc', 4],
    ])
  })

  it('a newer request aborts the one in flight: its late answer is dropped', async () => {
    const pending: { url: string; resolve: (r: MitigationRanking) => void; signal: AbortSignal }[] = []
    const load = (url: string, signal: AbortSignal) =>
      new Promise<MitigationRanking>((resolve) => pending.push({ url, resolve, signal }))
    const { loader, results } = setup(load)
    loader.request('/first')
    loader.request('/second')
    expect(pending[0]?.signal.aborted).toBe(true)
    pending[1]?.resolve(ranking(2))
    pending[0]?.resolve(ranking(1))
    await vi.advanceTimersByTimeAsync(0)
    expect(results).toEqual([['/second', 2]])
  })

  it('reports errors with the server message; cancel drops a pending request', async () => {
    const load = vi.fn((url: string) =>
      url === '/bad'
        ? Promise.reject(new MitigationApiError(400, 'no', 'weight'))
        : Promise.resolve(ranking(1)),
    )
    const { loader, results, errors } = setup(load)
    loader.request('/bad')
    await vi.advanceTimersByTimeAsync(0)
    expect(errors).toEqual([['/bad', 'no']])
    loader.request('/ok')
    await vi.advanceTimersByTimeAsync(0)
    expect(results).toEqual([['/ok', 1]])
    loader.request('/later')
    loader.cancel()
    await vi.advanceTimersByTimeAsync(1000)
    expect(load).toHaveBeenCalledTimes(2)
  })
})
