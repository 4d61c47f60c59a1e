import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { catalogFrom, type DatasetDef } from './catalog'
import type { ColumnFilter, SortKey } from './columnIndex'
import { ColumnIndexBuilder } from './columnIndexStore'
import { DatasetRecords } from './datasetRecords'
import { openStore, SqliteStore } from './sqliteStore'

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

describe('records sort, persisted index and the SQL path', () => {
  const sub = fs.mkdtempSync(path.join(dir, 'persist-'))
  const store = openStore(sub, catalog)
  const towns = ['Santa Fe', 'taos', 'Las Cruces', null, 'Abiquiu']
  store.replaceDataset(
    'things',
    Array.from({ length: 1000 }, (_, i) => ({
      geometry: { type: 'Point' as const, coordinates: [-106 + i / 1000, 35] },
      properties: { town: towns[i % 5], score: i % 7 === 0 ? null : i % 100, secret: i },
    })),
  )
  const queries: { filters: ColumnFilter[]; sort?: SortKey }[] = [
    { filters: [{ field: 'town', op: 'contains', value: 'A' }] },
    { filters: [{ field: 'score', op: 'gt', value: 40 }], sort: { field: 'score', descending: true } },
    { filters: [], sort: { field: 'town', descending: false } },
    { filters: [{ field: 'score', op: 'neq', value: 3 }], sort: { field: 'town', descending: true } },
    { filters: [{ field: 'town', op: 'contains', value: 'zzz' }] },
  ]
  const run = (s: SqliteStore | DatasetRecords, q: (typeof queries)[number], limit = 1000, offset = 0) =>
    s instanceof SqliteStore
      ? s.records('things', q.filters, limit, offset, q.sort)
      : s.records(store.dataset('things') as DatasetDef, q.filters, limit, offset, q.sort)

  it('sorts by a column ascending or descending, missing values last, ties by id', () => {
    const desc = store.records('things', [], 1000, 0, { field: 'score', descending: true }).records
    const scores = desc.map((r) => r.score)
    const present = scores.filter((s): s is number => typeof s === 'number')
    expect(present).toEqual([...present].sort((a, b) => b - a))
    expect(scores.slice(present.length).every((s) => s === null)).toBe(true)
    const top = desc.filter((r) => r.score === 99).map((r) => r.id as number)
    expect(top).toEqual([...top].sort((a, b) => a - b))
    const asc = store.records('things', [], 1000, 0, { field: 'town', descending: false }).records
    expect(asc.slice(0, 3).map((r) => r.town)).toEqual(['Abiquiu', 'Abiquiu', 'Abiquiu'])
    expect(asc.at(-1)?.town).toBeNull()
    const page = store.records('things', [], 10, 200, { field: 'town', descending: false })
    expect(page.records.map((r) => r.id)).toEqual(asc.slice(200, 210).map((r) => r.id))
    expect(page.total).toBe(1000)
  })

  it('loads the index persisted at import after a restart', () => {
    const reopened = openStore(sub, catalog)
    try {
      expect(reopened.columnIndex('things')).not.toBeNull()
      for (const q of queries) expect(run(reopened, q, 7, 3)).toEqual(run(store, q, 7, 3))
    } finally {
      reopened.close()
    }
  })

  it('without a persisted index, answers by SQL while building it in chunks, then persists it', async () => {
    store.db.prepare('DELETE FROM column_index').run()
    const info = (id: string) => store.info(id)
    const reader = new DatasetRecords(store.db, catalog, info, 100)
    expect(reader.index('things')).toBeNull()
    for (const q of queries) {
      expect(run(reader, q), JSON.stringify(q)).toEqual(run(store, q))
      expect(run(reader, q, 5, 17)).toEqual(run(store, q, 5, 17))
    }
    for (let i = 0; i < 50 && reader.index('things') === null; i++) await new Promise((r) => setImmediate(r))
    expect(reader.index('things')).not.toBeNull()
    for (const q of queries) expect(run(reader, q, 9, 11)).toEqual(run(store, q, 9, 11))
    expect(store.db.prepare('SELECT count(*) FROM column_index').pluck().get()).toBe(3)
    expect(new DatasetRecords(store.db, catalog, info, 100).index('things')).not.toBeNull()
    // A damaged saved column is not trusted: the index is rebuilt, answers stay right.
    store.db.prepare("UPDATE column_index SET data = zeroblob(8) WHERE field = 'score'").run()
    const damaged = new DatasetRecords(store.db, catalog, info, 100)
    expect(damaged.index('things')).toBeNull()
    for (const q of queries) expect(run(damaged, q, 9, 11)).toEqual(run(store, q, 9, 11))
  })
})

describe('ColumnIndex against a plain scan', () => {
  it('answers any sequence of filter sets and sorts like filtering an array (caches included)', () => {
    let seed = 11
    const rand = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
    const n = 3000
    const towns = ['Santa Fe', 'Taos', 'Las Cruces', 'Santa Rosa', '']
    const rows = Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      town: towns[Math.floor(rand() * towns.length)] as string,
      score: rand() < 0.1 ? NaN : Math.floor(rand() * 50),
    }))
    const builder = new ColumnIndexBuilder(catalog.datasets[0]?.fields.slice(0, 2) ?? [])
    for (const r of rows) builder.add(r.id, [r.town, Number.isNaN(r.score) ? null : r.score])
    const index = builder.build()
    const pool: ColumnFilter[] = [
      { field: 'town', op: 'contains', value: 'santa' },
      { field: 'town', op: 'contains', value: 'TAOS' },
      { field: 'score', op: 'gt', value: 20 },
      { field: 'score', op: 'lte', value: 10 },
      { field: 'score', op: 'neq', value: 5 },
      { field: 'score', op: 'eq', value: 7 },
    ]
    const passes = (r: (typeof rows)[number], f: ColumnFilter): boolean => {
      if (f.op === 'contains') return r.town !== '' && r.town.toLowerCase().includes(f.value.toLowerCase())
      const v = r.score
      if (f.op === 'eq') return v === f.value
      if (f.op === 'neq') return v < f.value || v > f.value
      if (f.op === 'gt') return v > f.value
      if (f.op === 'gte') return v >= f.value
      return f.op === 'lt' ? v < f.value : v <= f.value
    }
    for (let q = 0; q < 300; q++) {
      const filters = pool.filter(() => rand() < 0.35)
      const sort: SortKey | undefined =
        rand() < 0.3 ? { field: rand() < 0.5 ? 'town' : 'score', descending: rand() < 0.5 } : undefined
      let expected = rows.filter((r) => filters.every((f) => passes(r, f)))
      if (sort) {
        const key = (r: (typeof rows)[number]): number | string =>
          sort.field === 'town' ? r.town.toLowerCase() : r.score
        const missing = (r: (typeof rows)[number]): boolean =>
          sort.field === 'town' ? r.town === '' : Number.isNaN(r.score)
        expected = [...expected].sort((a, b) => {
          if (missing(a) || missing(b)) return Number(missing(a)) - Number(missing(b)) || a.id - b.id
          const x = key(a)
          const y = key(b)
          return x === y ? a.id - b.id : (x < y ? -1 : 1) * (sort.descending ? -1 : 1)
        })
      }
      // Deep pages too: a sorted prefix kept from an earlier page must grow.
      const offset = Math.floor(rand() * (rand() < 0.3 ? 3000 : 50))
      const got = index.query(filters, 40, offset, sort)
      const label = JSON.stringify({ filters, sort, offset })
      expect(got.total, label).toBe(expected.length)
      expect(got.ids, label).toEqual(expected.slice(offset, offset + 40).map((r) => r.id))
    }
  })
})
