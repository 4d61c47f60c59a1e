import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCatalog } from './catalog'
import { tableNames } from './datasetTables'
import { openStore, type SqliteStore } from './sqliteStore'
import { tileRows } from './tileRows'
import type { FeatureInput } from './Store'

// A feature without geometry is stored only when the writer asks for it (`recordOnly`, the feed
// path for zone-only alerts): a record with NULL bbox, no parts, not in the extent or tile rows.
let dir: string
let store: SqliteStore

const warning: FeatureInput = {
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [-106.9, 34.9],
        [-106.3, 34.9],
        [-106.3, 35.4],
        [-106.9, 34.9],
      ],
    ],
  },
  properties: { event: 'Red Flag Warning', severity: 'Severe' },
}
const watch: FeatureInput = {
  geometry: null,
  properties: { event: 'Fire Weather Watch', severity: 'Moderate' },
  recordOnly: true,
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-record-only-'))
  store = openStore(dir, defaultCatalog())
})
afterEach(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('records without geometry', () => {
  it('are stored as records: bbox null, not in the extent, the aggregate cells or the tile rows', () => {
    expect(store.replaceDataset('red_flag_warnings', [watch, warning, watch])).toBe(3)
    const { records, total } = store.records('red_flag_warnings', [], 10, 0)
    expect(total).toBe(3)
    expect(records.map((r) => r.bbox)).toEqual([null, [-106.9, 34.9, -106.3, 35.4], null])
    expect(store.info('red_flag_warnings')).toMatchObject({ count: 3, bbox: [-106.9, 34.9, -106.3, 35.4] })
    const def = store.dataset('red_flag_warnings')
    if (!def) throw new Error('no red_flag_warnings dataset')
    const tiles = tileRows(store.db, def)
    expect(tiles.count).toBe(3)
    expect([...tiles.rows].map((r) => r[0])).toEqual([2])
    const inBox = store.featuresInBox('red_flag_warnings', [-180, -85, 180, 85], 0, 10)
    expect(inBox.features.map((f) => f.id)).toEqual([2])
  })

  it('only records: the dataset has no extent', () => {
    store.replaceDataset('red_flag_warnings', [watch])
    expect(store.info('red_flag_warnings')).toEqual({ version: 1, count: 1, bbox: null })
  })

  it('without recordOnly a missing geometry is still an error and the data stays', () => {
    store.replaceDataset('red_flag_warnings', [warning])
    expect(() =>
      store.replaceDataset('red_flag_warnings', [{ ...watch, recordOnly: undefined, line: 7 }]),
    ).toThrow('line 7: missing geometry')
    expect(store.info('red_flag_warnings')).toMatchObject({ version: 1, count: 1 })
  })

  it('a table created with NOT NULL bbox columns (before) is replaced by one that takes records', () => {
    const { features } = tableNames('red_flag_warnings')
    const notNull = () =>
      store.db
        .prepare(`SELECT "notnull" FROM pragma_table_info('${features}') WHERE name = 'minx'`)
        .pluck()
        .get()
    store.db.exec(`DROP TABLE ${features}`)
    store.db.exec(
      `CREATE TABLE ${features} (id INTEGER PRIMARY KEY, minx REAL NOT NULL, miny REAL NOT NULL, maxx REAL NOT NULL,
       maxy REAL NOT NULL, size REAL NOT NULL, geom BLOB NOT NULL, f_event TEXT, f_severity TEXT)`,
    )
    expect(notNull()).toBe(1)
    store.replaceDataset('red_flag_warnings', [warning, watch])
    expect(notNull()).toBe(0)
    expect(store.records('red_flag_warnings', [], 10, 0).total).toBe(2)
  })
})
