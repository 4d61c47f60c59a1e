import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { catalogFrom } from './catalog'
import { openStore } from './sqliteStore'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-colidx-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const catalog = catalogFrom(
  {
    datasets: [
      {
        id: 'things',
        geometry: 'point',
        fields: [
          { name: 'town', type: 'string' },
          { name: 'score', type: 'number' },
          { name: 'secret', type: 'number' },
        ],
      },
    ],
    sources: [],
  },
  {
    tables: [
      {
        id: 't',
        dataset: 'things',
        columns: [
          { key: 'town', type: 'string', filterable: true },
          { key: 'score', type: 'number', filterable: true },
          { key: 'secret', type: 'number', filterable: false },
        ],
      },
    ],
  },
)

describe('store records over the column index', () => {
  const store = openStore(dir, catalog)
  const towns = ['Santa Fe', 'Taos', 'Las Cruces', null]
  store.replaceDataset(
    'things',
    Array.from({ length: 1000 }, (_, i) => ({
      geometry: { type: 'Point' as const, coordinates: [-106 + i / 1000, 35] },
      properties: { town: towns[i % 4], score: i % 100, secret: i },
    })),
  )

  it('combines filters, pages in id order and counts the total', () => {
    const page = store.records(
      'things',
      [
        { field: 'town', op: 'contains', value: 'SANTA' },
        { field: 'score', op: 'gte', value: 50 },
      ],
      5,
      10,
    )
    expect(page.total).toBe(120)
    expect(page.records.map((r) => r.id)).toEqual([93, 97, 153, 157, 161])
    expect(page.records.every((r) => r.town === 'Santa Fe' && (r.score as number) >= 50)).toBe(true)
  })

  it('does not match missing values with numeric or text filters', () => {
    expect(store.records('things', [{ field: 'town', op: 'contains', value: 'a' }], 1, 0).total).toBe(750)
    expect(store.records('things', [{ field: 'score', op: 'neq', value: 0 }], 1, 0).total).toBe(990)
  })

  it('rebuilds after the dataset is replaced', () => {
    expect(store.records('things', [{ field: 'score', op: 'eq', value: 7 }], 10, 0).total).toBe(10)
    store.replaceDataset('things', [
      { geometry: { type: 'Point', coordinates: [-106, 35] }, properties: { town: 'Taos', score: 7 } },
    ])
    expect(store.records('things', [{ field: 'score', op: 'eq', value: 7 }], 10, 0).total).toBe(1)
  })
})
