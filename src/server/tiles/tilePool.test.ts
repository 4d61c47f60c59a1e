import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import type { Catalog, DatasetDef } from '../store/catalog'
import { openStore } from '../store/sqliteStore'
import { aggregatedTile, buildTile } from './buildTile'
import { CELL_BITS } from '../store/writeDataset'
import { encodeSlice } from './encodeSlice'
import { buildTileData, sharedTileData, spatialIndex } from './tileData'
import { TilePool } from './tilePool'

const d: DatasetDef = { id: 'sites', geometry: 'point', fields: [{ name: 'name', type: 'string' }] }
const catalog: Catalog = {
  datasets: [d],
  tables: [],
  sources: [{ id: 'sites_mvt', path: 'sites', dataset: 'sites', minzoom: 0, maxzoom: 16 }],
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-tilepool-'))
const store = openStore(dir, catalog)
store.replaceDataset(
  'sites',
  Array.from({ length: 50 }, (_, i) => ({
    geometry: { type: 'Point' as const, coordinates: [-106 + i * 0.01, 35 + i * 0.01] },
    properties: { name: `site ${i}` },
  })),
)
const data = sharedTileData(buildTileData(d, store.tileRows('sites')))
const version = data.version
const plan = { thin: false, minSize: 0, limit: 50_000, tolerance: 1 }
const limits = { maxFeatures: 50_000, maxGzipBytes: 500_000 }
const pool = new TilePool({ file: store.location, catalog }, 2)
afterAll(async () => {
  await pool.close()
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('TilePool', () => {
  it('builds in worker threads exactly the tile the main thread builds, gzipped', async () => {
    pool.share(data)
    const [z, x, y] = [8, 52, 101]
    const inline = encodeSlice(data, spatialIndex(data), d.id, z, x, y, plan)
    const pooled = await pool.run(d.id, version, z, x, y, plan)
    expect(inline.features).toBeGreaterThan(10)
    expect(pooled?.features).toBe(inline.features)
    expect(Buffer.from(pooled?.pbf ?? [])).toEqual(Buffer.from(inline.pbf))
    expect(Buffer.from(zlib.gunzipSync(pooled?.gz ?? new Uint8Array()))).toEqual(Buffer.from(inline.pbf))
  })

  it('encodes an aggregated tile from cells handed over (a store without a file) as the main thread does', async () => {
    const k = 2 ** CELL_BITS
    const cells = [
      { cx: 52 * k + 1, cy: 101 * k + 2, n: 7 },
      { cx: 52 * k + 3, cy: 101 * k + 2, n: 1 },
      { cx: 52 * k + k - 1, cy: 101 * k + k - 1, n: 40 },
    ]
    const inline = aggregatedTile(d.id, 52, 101, cells)
    const pooled = await pool.runCells(d.id, 52, 101, cells)
    expect(inline.features).toBe(3)
    expect(pooled?.mode).toBe('aggregated')
    expect(pooled?.features).toBe(3)
    expect(Buffer.from(pooled?.pbf ?? [])).toEqual(Buffer.from(inline.pbf))
    expect(Buffer.from(zlib.gunzipSync(pooled?.gz ?? new Uint8Array()))).toEqual(Buffer.from(inline.pbf))
  })

  it('builds from the store (own read-only connection) what the main thread builds from it', async () => {
    const source = catalog.sources[0]
    if (!source) throw new Error('no source')
    const inline = await buildTile(store, source, 8, 52, 101, limits, 1, null)
    const pooled = await pool.runStore(source.id, 8, 52, 101, limits, 1)
    expect(inline.features).toBeGreaterThan(10)
    expect(pooled?.features).toBe(inline.features)
    expect(Buffer.from(pooled?.pbf ?? [])).toEqual(Buffer.from(inline.pbf))
    // With the version its connection read with the rows (the tile cache keys the tile by it).
    expect(pooled?.version).toBe(version)
    expect(inline.version).toBe(version)
  })

  it('answers null for data it does not hold (another version): the caller builds in process', async () => {
    expect(await pool.run(d.id, version + 1, 8, 52, 101, plan)).toBeNull()
    expect(await pool.run('unknown', version, 8, 52, 101, plan)).toBeNull()
    expect(await pool.runStore('no_such_source', 8, 52, 101, limits, 1)).toBeNull()
  })
})
