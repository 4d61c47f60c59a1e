import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCatalog } from './catalog'
import { openStore, type SqliteStore } from './sqliteStore'
import { tileRows } from './tileRows'
import type { FeatureInput } from './Store'

// FeatureStore.transaction takes an async fn (the PostgreSQL store's writes are awaited inside
// it); the SQLite store begins and ends the transaction itself around it.
let dir: string
let store: SqliteStore

const point = (lon: number, name: string): FeatureInput => ({
  geometry: { type: 'Point', coordinates: [lon, 35] },
  properties: { name, type: 'Hospital' },
})

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-tx-'))
  store = openStore(dir, defaultCatalog())
  store.replaceDataset('critical_infrastructure', [point(-106, 'kept')])
})
afterEach(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('SqliteStore.transaction', () => {
  it('commits every awaited write of fn, and a nested call joins it', async () => {
    const out = await store.transaction(async () => {
      await store.replaceDataset('critical_infrastructure', [point(-106, 'a'), point(-105, 'b')])
      await store.transaction(async () => store.setMeta('k', 'v'))
      store.replaceSeries('s', [{ t: '2025-01-01T00:00:00Z', value: 1 }])
      return 'done'
    })
    expect(out).toBe('done')
    expect(store.info('critical_infrastructure').count).toBe(2)
    expect(store.getMeta('k')).toBe('v')
    expect(store.series('s')).toHaveLength(1)
  })

  it('rolls every write back when fn rejects, and forgets what it read meanwhile', async () => {
    const before = store.info('critical_infrastructure')
    await expect(
      store.transaction(async () => {
        await store.replaceDataset('critical_infrastructure', [point(-106, 'a'), point(-105, 'b')])
        expect(store.info('critical_infrastructure').count).toBe(2)
        store.setMeta('k', 'v')
        await Promise.resolve()
        throw new Error('interrupted')
      }),
    ).rejects.toThrow('interrupted')
    expect(store.info('critical_infrastructure')).toEqual(before)
    expect(store.records('critical_infrastructure', [], 10, 0).records.map((r) => r.name)).toEqual(['kept'])
    expect(store.getMeta('k')).toBeUndefined()
  })

  it('refuses a second transaction begun from elsewhere while one is open', async () => {
    let release = (): void => undefined
    const first = store.transaction(
      () =>
        new Promise<void>((resolve) => {
          release = resolve
        }),
    )
    await expect(store.transaction(async () => undefined)).rejects.toThrow(/inside another transaction/)
    release()
    await first
    await expect(store.transaction(async () => 1)).resolves.toBe(1)
  })

  it('tile rows run their statement when iterated, so the store can be written in between', () => {
    const d = store.dataset('critical_infrastructure')
    if (!d) throw new Error('no dataset')
    const rows = tileRows(store.db, d)
    store.setMeta('written', 'while the rows wait')
    expect([...rows.rows]).toHaveLength(1)
  })
})
