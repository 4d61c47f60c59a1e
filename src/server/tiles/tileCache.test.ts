import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { afterAll, describe, expect, it } from 'vitest'
import type { Catalog, DatasetDef } from '../store/catalog'
import { openStore } from '../store/sqliteStore'
import { TileCache } from './tileCache'

const d: DatasetDef = {
  id: 'parcels',
  geometry: 'polygon',
  fields: [
    { name: 'kind', type: 'string' },
    { name: 'acres', type: 'number' },
  ],
}
const catalog: Catalog = {
  datasets: [d],
  tables: [],
  sources: [{ id: 'parcels_mvt', path: 'parcels', dataset: 'parcels', minzoom: 0, maxzoom: 18 }],
}
const source = catalog.sources[0] as Catalog['sources'][number]
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-tilecache-'))
const store = openStore(dir, catalog)
const parcels = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const x = -106.5 + (i % 20) * 0.002
    const y = 35.1 + Math.floor(i / 20) * 0.002
    return {
      geometry: {
        type: 'Polygon' as const,
        coordinates: [
          [
            [x, y],
            [x + 0.001, y],
            [x + 0.001, y + 0.001],
            [x, y],
          ],
        ],
      },
      properties: { kind: i % 2 ? 'a' : 'b', acres: i },
    }
  })
store.replaceDataset('parcels', parcels(400))
const cache = new TileCache(store, { maxFeatures: 50_000, maxGzipBytes: 500_000, maxCacheBytes: 1 << 24 })
afterAll(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The z14 tile holding lon/lat. */
function tileAt(lon: number, lat: number, z = 14): [number, number, number] {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  return [
    z,
    Math.floor(((lon + 180) / 360) * n),
    Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n),
  ]
}

describe('TileCache request coalescing', () => {
  it('cuts a tile once for N concurrent requests, and answers them all with it', async () => {
    const [z, x, y] = tileAt(-106.48, 35.11)
    const before = cache.cuts
    const answers = await Promise.all(Array.from({ length: 16 }, () => cache.get(source, z, x, y)))
    expect(cache.cuts - before).toBe(1)
    const first = answers[0]
    expect(first?.features).toBeGreaterThan(10)
    for (const a of answers) expect(a).toBe(first)
    const layer = new VectorTile(new Pbf(zlib.gunzipSync(first?.gz ?? Buffer.alloc(0)))).layers.parcels
    expect(layer?.length).toBe(first?.features)
    // Later requests are cache hits; another tile is its own cut.
    await Promise.all([cache.get(source, z, x, y), cache.get(source, z, x, y)])
    expect(cache.cuts - before).toBe(1)
    await Promise.all([
      cache.get(source, z, x + 1, y),
      cache.get(source, z, x + 1, y),
      cache.get(source, z, x, y),
    ])
    expect(cache.cuts - before).toBe(2)
  })

  it('cuts again, once, after a re-import (another version)', async () => {
    const [z, x, y] = tileAt(-106.48, 35.11)
    await cache.get(source, z, x, y)
    store.replaceDataset('parcels', parcels(200))
    await new Promise((r) => setTimeout(r, 300)) // the store caches its version for 250 ms
    const before = cache.cuts
    const answers = await Promise.all(Array.from({ length: 8 }, () => cache.get(source, z, x, y)))
    expect(cache.cuts - before).toBe(1)
    expect(new Set(answers).size).toBe(1)
  })
})
