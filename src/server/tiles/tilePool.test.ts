import zlib from 'node:zlib'
import Flatbush from 'flatbush'
import { afterAll, describe, expect, it } from 'vitest'
import type { DatasetDef } from '../store/catalog'
import { encodeGeometry, toParts } from '../store/geometryCodec'
import { encodeSlice } from './encodeSlice'
import { buildTileData, sharedTileData } from './tileData'
import { TilePool } from './tilePool'

const d: DatasetDef = { id: 'sites', geometry: 'point', fields: [{ name: 'name', type: 'string' }] }
const rows = Array.from({ length: 50 }, (_, i) => {
  const g = encodeGeometry(
    toParts({ type: 'Point', coordinates: [-106 + i * 0.01, 35 + i * 0.01] }, 'point'),
    'point',
  )
  return [i + 1, g.size, g.blob, `site ${i}`]
})
const data = sharedTileData(buildTileData(d, { version: 7, count: rows.length, bbox: null, rows }))
const plan = { thin: false, minSize: 0, limit: 50_000, tolerance: 1 }
const pool = new TilePool(2)
afterAll(() => pool.close())

describe('TilePool', () => {
  it('builds in worker threads exactly the tile the main thread builds, gzipped', async () => {
    pool.share(data)
    const [z, x, y] = [8, 52, 101]
    const inline = encodeSlice(data, Flatbush.from(data.index as SharedArrayBuffer), d.id, z, x, y, plan)
    const pooled = await pool.run(d.id, 7, z, x, y, plan)
    expect(pooled).not.toBeNull()
    expect(inline.features).toBeGreaterThan(10)
    expect(pooled?.features).toBe(inline.features)
    expect(Buffer.from(pooled?.pbf ?? [])).toEqual(Buffer.from(inline.pbf))
    expect(Buffer.from(zlib.gunzipSync(pooled?.gz ?? new Uint8Array()))).toEqual(
      Buffer.from(pooled?.pbf ?? []),
    )
  })

  it('answers null for data it does not hold (another version): the caller builds in process', async () => {
    expect(await pool.run(d.id, 8, 8, 52, 101, plan)).toBeNull()
    expect(await pool.run('unknown', 7, 8, 52, 101, plan)).toBeNull()
  })
})
