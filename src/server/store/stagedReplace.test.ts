import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCatalog } from './catalog'
import { openStore, STORE_FILE, type SqliteStore } from './sqliteStore'
import type { FeatureInput } from './Store'

// A replacement is written beside the live rows (a staging table filled in short transactions)
// and swapped in at the end: meanwhile other connections see the old data, and the write lock is
// released after every batch (the rows of finished batches are committed, visible to others).
let dir: string
let store: SqliteStore
let other: Database.Database

const square = (i: number): FeatureInput => {
  const lon = -106 + (i % 1000) * 0.001
  const lat = 35 + Math.floor(i / 1000) * 0.001
  return {
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [lon, lat],
          [lon + 0.0005, lat],
          [lon + 0.0005, lat + 0.0005],
          [lon, lat + 0.0005],
          [lon, lat],
        ],
      ],
    },
    properties: { area_ft2: 100 + i },
  }
}

function* features(n: number, during?: (i: number) => void): Generator<FeatureInput> {
  for (let i = 0; i < n; i++) {
    during?.(i)
    yield square(i)
  }
}

const liveCount = () => Number(other.prepare('SELECT count(*) FROM ds_buildings').pluck().get())
const tables = () =>
  other
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds_buildings%' ORDER BY name",
    )
    .pluck()
    .all()

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-staged-'))
  store = openStore(dir, defaultCatalog())
  store.replaceDataset('buildings', features(1000))
  other = new Database(path.join(dir, STORE_FILE))
})

afterEach(() => {
  other.close()
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('replacing a dataset', () => {
  it('keeps the old rows visible until the swap, committing the new ones in batches beside them', () => {
    const seen: { live: number; staged: number }[] = []
    store.replaceDataset(
      'buildings',
      features(120_000, (i) => {
        if (i !== 60_000 && i !== 110_000) return
        const staged = Number(other.prepare('SELECT count(*) FROM ds_buildings__staging').pluck().get())
        seen.push({ live: liveCount(), staged })
      }),
    )
    expect(seen.map((s) => s.live)).toEqual([1000, 1000])
    expect(seen[0]?.staged).toBeGreaterThanOrEqual(50_000)
    expect(seen[1]?.staged).toBeGreaterThan(seen[0]?.staged ?? 0)
    expect(liveCount()).toBe(120_000)
    expect(store.info('buildings').count).toBe(120_000)
    expect(tables()).toEqual(['ds_buildings'])
  })

  it('leaves the live rows and no staging table when the new data fails half-way', () => {
    const before = store.info('buildings')
    expect(() =>
      store.replaceDataset(
        'buildings',
        features(90_000, (i) => {
          if (i === 70_000) throw new Error('bad feature at line 70001')
        }),
      ),
    ).toThrow(/line 70001/)
    expect(liveCount()).toBe(1000)
    expect(store.info('buildings')).toEqual(before)
    expect(tables()).toEqual(['ds_buildings'])
  })
})
