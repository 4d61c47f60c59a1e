import { afterEach, describe, expect, it, vi } from 'vitest'
import { initDataSources, resetDataSources } from './dataSources'
import { registerSessionSources, smokeServiceConfig, windGrid } from './sessionSources'

const answers: Record<string, unknown> = {
  '/api/data/wind_vectors/tileset': { tileset_id: 'run-1' },
  '/api/data/wind_vectors/grid/run-1': [{ u: 1, v: 2 }],
  '/api/data/smoke/service/config': { modelRuns: [{ id: 'r' }], inventory: [] },
}

afterEach(() => {
  resetDataSources()
  vi.unstubAllGlobals()
})

describe('session sources (spec §4: wind vectors and smoke after login)', () => {
  it('fetches the wind grid and the smoke service config when a session starts, once', async () => {
    const fetched: string[] = []
    vi.stubGlobal('fetch', (url: string) => {
      fetched.push(url)
      return Promise.resolve(
        new Response(JSON.stringify(answers[url] ?? {}), { status: url in answers ? 200 : 404 }),
      )
    })
    const stop = registerSessionSources()
    expect(fetched).toEqual([])
    initDataSources()
    await expect(windGrid('/api/data/wind_vectors')).resolves.toEqual([{ u: 1, v: 2 }])
    await expect(smokeServiceConfig('/api/data/smoke/service')).resolves.toMatchObject({
      modelRuns: [{ id: 'r' }],
    })
    expect(fetched.sort()).toEqual(Object.keys(answers).sort())
    stop()
  })

  it('only logs a failure, and a later use tries again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let calls = 0
    vi.stubGlobal('fetch', () => {
      calls++
      return Promise.resolve(new Response('down', { status: 503 }))
    })
    const stop = registerSessionSources()
    initDataSources()
    await expect(smokeServiceConfig('/api/data/smoke/service')).rejects.toThrow(/503/)
    await new Promise((r) => setTimeout(r, 0))
    expect(warn).toHaveBeenCalled()
    const before = calls
    await expect(smokeServiceConfig('/api/data/smoke/service')).rejects.toThrow(/503/)
    expect(calls).toBeGreaterThan(before)
    stop()
    warn.mockRestore()
  })
})
