import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultCatalog } from '../store/catalog'
import { decodeParts } from '../store/geometryCodec'
import { openStore } from '../store/sqliteStore'
import type { FeatureInput } from '../store/Store'
import { buildTileData, buildTileDataYielding } from './tileData'

// Without a store file (PostgreSQL) the server builds tile data in its own thread: in slices
// between turns of the event loop, the same data as the one-go build of the worker threads.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-yield-'))
const store = openStore(dir, defaultCatalog())
afterAll(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

function square(i: number): FeatureInput {
  const [lon, lat] = [-107 + (i % 30) * 0.01, 35 + Math.floor(i / 30) * 0.01]
  const r = 0.002 + (i % 5) * 0.0005
  const ring = [
    [lon, lat],
    [lon + r, lat],
    [lon + r, lat + r],
    [lon + r / 2, lat + r * 1.5],
    [lon, lat + r],
    [lon, lat],
  ]
  return {
    geometry: { type: 'Polygon', coordinates: [ring] },
    properties: { height: 3 + (i % 7), use: i % 2 ? 'residential' : 'commercial' },
  }
}

describe('buildTileDataYielding', () => {
  it('builds the data buildTileData builds, letting other work run between slices', async () => {
    store.replaceDataset(
      'buildings',
      Array.from({ length: 250 }, (_, i) => square(i)),
    )
    const d = store.dataset('buildings')
    if (!d) throw new Error('no buildings dataset')
    const once = buildTileData(d, store.tileRows('buildings'))
    let turns = 0
    let counting = true
    const count = (): void => {
      if (!counting) return
      turns += 1
      setImmediate(count)
    }
    setImmediate(count)
    const sliced = await buildTileDataYielding(d, store.tileRows('buildings'), 20)
    counting = false
    // 13 slices of rows and 13 of rings: another task ran between them.
    expect(turns).toBeGreaterThan(20)
    expect(sliced.n).toBe(250)
    expect(sliced).toEqual(once)
  })

  it('reads geometry blobs at any byte offset (a Buffer view into a larger pool, as drivers hand out)', () => {
    const d = store.dataset('buildings')
    if (!d) throw new Error('no buildings dataset')
    store.replaceDataset(
      'buildings',
      Array.from({ length: 30 }, (_, i) => square(i)),
    )
    const rows = [...store.tileRows('buildings').rows]
    const shifted = rows.map((row) => {
      const geom = row[2] as Uint8Array
      const view = Buffer.concat([Buffer.alloc(3), geom]).subarray(3)
      return [row[0], row[1], view, ...row.slice(3)]
    })
    const base = { version: 1, count: rows.length, bbox: null }
    expect(buildTileData(d, { ...base, rows: shifted })).toEqual(buildTileData(d, { ...base, rows }))
    expect(decodeParts(shifted[0]?.[2] as Uint8Array)).toEqual(decodeParts(rows[0]?.[2] as Uint8Array))
  })

  it('reads no row beyond the count and leaves the connection free for writes', async () => {
    store.replaceDataset(
      'buildings',
      Array.from({ length: 40 }, (_, i) => square(i)),
    )
    const d = store.dataset('buildings')
    if (!d) throw new Error('no buildings dataset')
    const rows = store.tileRows('buildings')
    const data = await buildTileDataYielding(d, { ...rows, count: 25 }, 10)
    expect(data.n).toBe(25)
    expect(() => store.setMeta('after', 'a build that stopped early')).not.toThrow()
  })
})
