import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppStore } from '../AppStore'
import { mercX, mercY } from '../geometryCodec'
import type { FeatureInput } from '../Store'
import { openPgStore, type PgStore } from './pgStore'
import { buildings, fixtureCatalog, openTestStore, storeKinds, type OpenedStore } from './storeFixture'

// Aggregate cells are answered from memory on PostgreSQL (PgCellCache): each answer must be the
// stored cells of the version asked about now, on both stores — also after an import.

/** Sum of every cell count over the tiles of zoom z that the features' bbox meets. */
async function cellTotal(store: AppStore, features: readonly FeatureInput[], z: number): Promise<number> {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const f of features) {
    const ring = (f.geometry as { coordinates: unknown }).coordinates as unknown
    const walk = (c: unknown): void => {
      if (Array.isArray(c) && typeof c[0] === 'number') {
        const [x, y] = c as [number, number]
        ;[x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)]
      } else if (Array.isArray(c)) c.forEach(walk)
    }
    walk(ring)
  }
  let total = 0
  for (let x = Math.floor(mercX(x0) * 2 ** z); x <= Math.floor(mercX(x1) * 2 ** z); x++)
    for (let y = Math.floor(mercY(y1) * 2 ** z); y <= Math.floor(mercY(y0) * 2 ** z); y++)
      total += (await store.cells('bldg', z, x, y)).cells.reduce((sum, c) => sum + c.n, 0)
  return total
}

describe.each(storeKinds)('aggregate cells across imports on %s', (kind) => {
  let opened: OpenedStore
  let store: AppStore
  const first = buildings(300, 3)
  const second = buildings(120, 5)
  beforeAll(async () => {
    opened = await openTestStore(kind)
    store = opened.store
    await store.replaceDataset('bldg', first)
  })
  afterAll(async () => opened.close())

  it('answers the cells of the version stored now, also after a replaceDataset', async () => {
    for (const z of [4, 7, 9]) expect(await cellTotal(store, first, z)).toBe(300)
    await store.replaceDataset('bldg', second)
    for (const z of [4, 7, 9]) expect(await cellTotal(store, second, z)).toBe(120)
    // Beyond the aggregated zooms nothing is stored.
    expect(await store.cells('bldg', 12, 0, 0)).toEqual({ version: 2, cells: [] })
  })

  it('answers cells in (cx, cy) order within the tile', async () => {
    const z = 9
    const x = Math.floor(mercX(-106) * 2 ** z)
    const y = Math.floor(mercY(35.6) * 2 ** z)
    const { cells } = await store.cells('bldg', z, x, y)
    expect(cells.length).toBeGreaterThan(0)
    const keys = cells.map((c) => c.cx * 2 ** 20 + c.cy)
    expect(keys).toEqual([...keys].sort((a, b) => a - b))
    for (const c of cells) {
      expect(c.cx >> 6).toBe(x)
      expect(c.cy >> 6).toBe(y)
    }
  })

  it.runIf(kind === 'postgres')('sees another server’s import once told (datasetReplaced)', async () => {
    const other: PgStore = await openPgStore(opened.url as string, fixtureCatalog)
    try {
      expect(await cellTotal(other, second, 7)).toBe(120)
      await store.replaceDataset('bldg', first)
      other.datasetReplaced('bldg')
      expect(await cellTotal(other, first, 7)).toBe(300)
    } finally {
      await other.close()
    }
  })
})
