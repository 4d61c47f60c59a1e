import { describe, expect, it, vi } from 'vitest'
import { loadWithReloadOnce, reloadFlagKey, type ReloadEnv } from './loadWithReloadOnce'

function env(): ReloadEnv & { store: Map<string, string>; reloads: number; logs: string[] } {
  const store = new Map<string, string>()
  const self = {
    store,
    reloads: 0,
    logs: [] as string[],
    storage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
    reload: () => void self.reloads++,
    log: (message: string) => void self.logs.push(message),
  }
  return self
}

describe('loadWithReloadOnce', () => {
  it('returns the module and clears the flag on success', async () => {
    const e = env()
    e.store.set(reloadFlagKey, '1')
    await expect(loadWithReloadOnce(async () => 'screen', e)).resolves.toBe('screen')
    expect(e.store.has(reloadFlagKey)).toBe(false)
    expect(e.reloads).toBe(0)
  })

  it('reloads the page once on the first failure', async () => {
    const e = env()
    const pending = loadWithReloadOnce(() => Promise.reject(new Error('chunk 404')), e)
    await vi.waitFor(() => expect(e.reloads).toBe(1))
    expect(e.store.has(reloadFlagKey)).toBe(true)
    expect(e.logs).toEqual([])
    void pending
  })

  it('only logs a second failure after the reload (no error for an error page to show)', async () => {
    const e = env()
    e.store.set(reloadFlagKey, '1')
    await expect(loadWithReloadOnce(() => Promise.reject(new Error('chunk 404')), e)).resolves.toBeNull()
    expect(e.reloads).toBe(0)
    expect(e.logs).toHaveLength(1)
    expect(e.store.has(reloadFlagKey)).toBe(false)
  })
})
