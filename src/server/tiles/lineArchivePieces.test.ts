import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Catalog, DatasetDef, VectorSourceDef } from '../store/catalog'
import { openPgStore, type PgStore } from '../store/pg/pgStore'
import { testPg, type TestPg } from '../store/pg/testing/pgTestDatabase'
import { openStore, type SqliteStore } from '../store/sqliteStore'
import type { Store } from '../store/Store'
import type { TileRows } from '../store/tileRows'
import { buildTile, type TileLimits } from './buildTile'
import type { ReadyTileData } from './readyTileData'
import { blockZoomOf, renderArchiveTiles, storeBlocks, type BlockReader } from './renderArchive'
import { SharedArchives, type RenderData } from './sharedArchives'
import type { ArchivedTile } from './tileArchiveFile'
import { buildTileData, spatialIndex } from './tileData'
import { ARCHIVE_POLICY } from './tilePolicy'

// A line dataset's archive (no zoom aggregated: thinned to z13, every feature at z14) rendered in
// bounded pieces — blocks where a tile's box holds at most `blockFeatures`, every denser tile on
// its own from just the features its plan keeps (`store.largestInBox`) — is the whole-data
// render, tile for tile and byte for byte, on SQLite and on PostgreSQL; and the leader's render
// never builds tile data of more than a block's or a tile's features.

const d: DatasetDef = {
  id: 'lines',
  geometry: 'line',
  fields: [
    { name: 'kind', type: 'string' },
    { name: 'volts', type: 'number' },
  ],
}
const source: VectorSourceDef = {
  id: 'lines_mvt',
  path: 'lines',
  dataset: 'lines',
  minzoom: 0,
  maxzoom: 16,
  generalize: { thinMaxZoom: 13, thinFeatures: 600, minSizePx: 0.5 },
}
const catalog: Catalog = { datasets: [d], tables: [], sources: [source] }
const COUNT = 6_000
const VILLAGE = 500
// Blocks of at most 400 features: z0–z13 over the town are too dense, rendered as pieces.
const BUDGET = 400
// Small enough that the densest z14 pieces exceed it and are cut again with half the features.
const limits: TileLimits = { maxFeatures: 2_000, maxGzipBytes: 6_000 }
const [WEST, SOUTH, SPAN] = [-106.7, 35.1, 0.05]

/**
 * Short segments on a jittered grid: seven lengths (many ties in size), every 37th a single point
 * twice (size 0, ranked as the largest), some long feeders, and two lines past 85.05° N (Mercator
 * y clamped to 0: they meet the top row's tiles).
 */
function lines(prefix = 'k') {
  const side = Math.ceil(Math.sqrt(COUNT))
  // A village 2° east: 500 lines of 2–8 m, under minSize down to z13 and alone in its tiles from
  // z8: pieces that draw nothing, whose children are visited only because smaller lines meet them.
  const village = Array.from({ length: VILLAGE }, (_, i) => {
    const [lon, lat] = [WEST + 2 + (i % 25) * 0.0004, SOUTH + Math.floor(i / 25) * 0.0004]
    const len = 0.00002 * (1 + (i % 4))
    return {
      geometry: {
        type: 'LineString' as const,
        coordinates: [
          [lon, lat],
          [lon + len, lat],
        ],
      },
      properties: { kind: `${prefix}v`, volts: 7 },
    }
  })
  const town = Array.from({ length: COUNT }, (_, i) => {
    const lon = WEST + ((i % side) / side) * SPAN
    const lat = SOUTH + (Math.floor(i / side) / side) * SPAN
    const len = i % 37 === 0 ? 0 : i % 211 === 0 ? 0.02 : 0.00003 * (1 + (i % 7))
    let coordinates = [
      [lon, lat],
      [lon + len, lat + len / 2],
    ]
    if (i === 5 || i === 6)
      coordinates = [
        [10 + i, 88.5],
        [10.5 + i, 89.5],
      ]
    return {
      geometry: { type: 'LineString' as const, coordinates },
      properties: { kind: `${prefix}${i % 4}`, volts: 12 + (i % 3) },
    }
  })
  return [...town, ...village]
}

const build = async (rows: TileRows): Promise<ReadyTileData> => {
  const data = buildTileData(d, rows)
  return { data, index: spatialIndex(data) }
}

async function whole(store: Store): Promise<ArchivedTile[]> {
  const ready = await build(await store.tileRows('lines'))
  const out: ArchivedTile[] = []
  await renderArchiveTiles(store, source, ready, limits, (t) => void out.push(t))
  return out
}

/** The render by blocks and pieces, and which tiles were pieces. */
async function inPieces(store: Store) {
  const { version, count } = await store.info('lines')
  const reader = storeBlocks(store, source, version, blockZoomOf(store, source, count), BUDGET, build)
  const pieces: string[] = []
  const blocks: number[] = []
  const counting: BlockReader = {
    ...reader,
    block: async (z, x, y) => {
      const b = await reader.block(z, x, y)
      blocks.push(b?.data.n ?? 0)
      return b
    },
    piece: async (z, x, y, minSize, limit) => {
      pieces.push(`${z}/${x}/${y}`)
      return reader.piece(z, x, y, minSize, limit)
    },
  }
  const out: ArchivedTile[] = []
  await renderArchiveTiles(store, source, counting, limits, (t) => void out.push(t))
  return { tiles: out, pieces, blocks }
}

const key = (t: ArchivedTile) => `${t.z}/${t.x}/${t.y}`

async function expectSameTiles(store: Store) {
  const want = await whole(store)
  const got = await inPieces(store)
  expect(got.tiles.map(key)).toEqual(want.map(key))
  for (let i = 0; i < want.length; i++) {
    const [w, g] = [want[i]!, got.tiles[i]!]
    expect([g.features, g.mode], key(w)).toEqual([w.features, w.mode])
    expect(g.gz.equals(w.gz), key(w)).toBe(true)
  }
  // Pieces at every zoom from z0 to z14 over the town, blocks below them, each within the budget.
  const zooms = new Set(got.pieces.map((p) => Number(p.split('/')[0])))
  for (let z = 0; z <= 14; z++) expect(zooms.has(z), `a piece at z${z}`).toBe(true)
  expect(got.blocks.length).toBeGreaterThan(0)
  expect(Math.max(...got.blocks)).toBeLessThanOrEqual(BUDGET)
  // A piece over the byte budget was cut again (halved limit) — the same bytes as the whole data's retry.
  const ready = await build(await store.tileRows('lines'))
  let retried = 0
  for (const p of got.pieces.filter((p) => p.startsWith('14/'))) {
    const [z, x, y] = p.split('/').map(Number) as [number, number, number]
    const first = await buildTile(store, source, z, x, y, limits, 1, ready)
    if (zlib.gzipSync(first.pbf, { level: 6 }).length > limits.maxGzipBytes) retried++
  }
  expect(retried).toBeGreaterThan(0)
  return want
}

let pg_: TestPg
let dir: string
let sqlite: SqliteStore
let pgStore: PgStore
const before = { ...ARCHIVE_POLICY }

beforeAll(async () => {
  ARCHIVE_POLICY.blockFeatures = BUDGET
  ARCHIVE_POLICY.inMemoryMaxFeatures = COUNT
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-line-pieces-'))
  sqlite = openStore(dir, catalog)
  sqlite.replaceDataset('lines', lines())
  pg_ = await testPg()
  pgStore = await openPgStore(pg_.url, catalog)
  await pgStore.replaceDataset('lines', lines())
}, 60_000)

afterAll(async () => {
  Object.assign(ARCHIVE_POLICY, before)
  sqlite?.close()
  await pgStore?.close()
  await pg_?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('a line archive rendered in pieces', () => {
  it('SQLite: every tile, z/x/y and bytes, is the whole-data render', async () => {
    await expectSameTiles(sqlite)
  }, 30_000)

  it('PostgreSQL: every tile, z/x/y and bytes, is the whole-data render', async () => {
    await expectSameTiles(pgStore)
  }, 30_000)

  it('PostgreSQL: the pieces read down the rank index, which a store opened on an older table adds', async () => {
    const c = new pg.Client({ connectionString: pg_.url })
    await c.connect()
    try {
      const has = async () =>
        (await c.query(`SELECT 1 FROM pg_indexes WHERE indexname = 'ds_lines_rank'`)).rowCount === 1
      expect(await has()).toBe(true)
      await c.query('DROP INDEX ds_lines_rank')
      const reopened = await openPgStore(pg_.url, catalog)
      await reopened.close()
      expect(await has()).toBe(true)
    } finally {
      await c.end()
    }
  }, 30_000)

  it("the leader's render builds no tile data of more than a block's or a tile's features, and its set is the whole render", async () => {
    const built: number[] = []
    const tileData: RenderData = {
      whole: async () => {
        const rows = await pgStore.tileRows('lines')
        built.push(rows.count)
        return build(rows)
      },
      block: async (rows) => {
        built.push(rows.count)
        return build(rows)
      },
    }
    const shared = new SharedArchives(pgStore, pgStore.tileArchiveStorage, {
      ...limits,
      maxCacheBytes: 1 << 20,
    })
    shared.renderWhen(() => true)
    await shared.render('lines', tileData)
    expect(shared.rendered.map((r) => r.source)).toEqual(['lines_mvt'])
    expect(built.length).toBeGreaterThan(1)
    expect(shared.piecesRead).toBeGreaterThan(0)
    // Never the dataset (6,500 rows): at most a block (400) or a tile's limit (2,000 at z14).
    expect(Math.max(...built)).toBeLessThanOrEqual(Math.max(BUDGET, limits.maxFeatures))
    const want = await whole(pgStore)
    const { version } = await pgStore.info('lines')
    expect(shared.rendered[0]?.tiles).toBe(want.length)
    for (const w of want) {
      const t = await pgStore.tileArchiveStorage.tile('lines_mvt', version, w.z, w.x, w.y)
      expect(t?.gz.equals(w.gz) ?? w.gz.length === 0, key(w)).toBe(true)
    }
  }, 30_000)
})
