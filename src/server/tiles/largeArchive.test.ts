import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { afterAll, describe, expect, it } from 'vitest'
import { serverSettings } from '../appSettings'
import type { Catalog, DatasetDef, VectorSourceDef } from '../store/catalog'
import { openStore } from '../store/sqliteStore'
import { promisedStore } from '../store/testing/promisedStore'
import { buildTile } from './buildTile'
import { archiveStamp } from './renderArchive'
import { saveTileData } from './saveTileData'
import { readTileArchive, tileArchivePath, tileKey } from './tileArchiveFile'
import { buildTileData, spatialIndex } from './tileData'
import { TileIndexes, tileIndexesOf } from './tileIndexes'
import { appAcceptingAnyToken, squareRing, tilesOverBox } from './testing/archiveTesting'
import { ARCHIVE_POLICY, DEFAULT_POLICY } from './tilePolicy'

// A large dataset (one feature more than a store without a file renders in memory; dense, so its
// tiles are per-cell counts to z11, the largest features at z12–13, every feature from z14): the
// whole pyramid to z14 is pre-rendered at import, zooms past z14 are cut on request.
const d: DatasetDef = {
  id: 'homes',
  geometry: 'polygon',
  fields: [
    { name: 'town', type: 'string' },
    { name: 'stories', type: 'number' },
  ],
}
const source: VectorSourceDef = { id: 'homes_mvt', path: 'homes', dataset: 'homes', minzoom: 0, maxzoom: 16 }
const catalog: Catalog = { datasets: [d], tables: [], sources: [source] }
const limits = serverSettings().tiles
const AUTH = { authorization: 'Bearer t' }
const COUNT = ARCHIVE_POLICY.inMemoryMaxFeatures + 1
// A 0.2° × 0.16° town north of Albuquerque: ~150 z14 tiles.
const [WEST, SOUTH, SPAN_X, SPAN_Y] = [-106.7, 35.1, 0.2, 0.16]

/** COUNT small squares on a jittered grid, sizes varying so thinning keeps the largest. */
function homes() {
  const side = Math.ceil(Math.sqrt(COUNT))
  return Array.from({ length: COUNT }, (_, i) => {
    const lon = WEST + ((i % side) / side) * SPAN_X
    const lat = SOUTH + (Math.floor(i / side) / side) * SPAN_Y
    const r = 0.00005 + (i % 13) * 0.00001
    const ring = squareRing(lon, lat, r)
    return {
      geometry: { type: 'Polygon' as const, coordinates: [ring] },
      properties: { town: `t${i % 5}`, stories: 1 + (i % 3) },
    }
  })
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-large-archive-'))
const store = openStore(dir, catalog)
store.replaceDataset('homes', homes())
const saved = await saveTileData(store, 'homes')
afterAll(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The ETag an archived tile z/x/y has (`"a<stamp tag>-z-x-y"`, tileArchives.ts), given the one sent. */
function archivedTag(z: number, x: number, y: number, etag: unknown): string {
  return `"a${String(etag).slice(2, 12)}-${z}-${x}-${y}"`
}

async function archive() {
  const a = await readTileArchive(
    tileArchivePath(store.location as string, source.id),
    await archiveStamp(store, source, limits),
  )
  if (!a) throw new Error('no archive')
  return a
}

/** Every tile of zoom z over the town's box and a tile around it. */
function tilesOver(z: number): [number, number][] {
  const pad = 360 / 2 ** z
  return tilesOverBox(z, [WEST - pad, SOUTH - pad / 2, WEST + SPAN_X + pad, SOUTH + SPAN_Y + pad / 2])
}

describe('tile archive of a large dataset', () => {
  it('holds z0–14, exactly the tiles cut on request, and every tile it lacks is empty', async () => {
    expect(COUNT).toBeGreaterThan(DEFAULT_POLICY.denseFeatures)
    const a = await archive()
    expect(saved?.archived).toBe(a.tiles.length)
    expect([a.minZoom, a.maxZoom]).toEqual([0, 14])
    const data = buildTileData(d, store.tileRows('homes'))
    const r = { data, index: spatialIndex(data) }
    const held = new Map(a.tiles.map((t) => [tileKey(t.z, t.x, t.y), t]))
    const modes = new Set<string>()
    let features14 = 0
    for (let z = 0; z <= 14; z++)
      for (const [x, y] of tilesOver(z)) {
        const cut = await buildTile(store, source, z, x, y, limits, 1, r)
        const t = held.get(tileKey(z, x, y))
        if (!t) {
          expect(cut.features, `${z}/${x}/${y} not archived`).toBe(0)
          continue
        }
        expect(t.features, `${z}/${x}/${y}`).toBe(cut.features)
        if (t.features > 0) expect(Buffer.from(zlib.gunzipSync(t.gz)).equals(Buffer.from(cut.pbf))).toBe(true)
        modes.add(`${z}:${t.mode}`)
        if (z === 14) features14 += t.features
      }
    // Cells to z11, thinned at z12–13 (edge tiles under the budget are full), every feature from z14.
    for (let z = 0; z <= 11; z++) expect(modes.has(`${z}:aggregated`), `z${z}`).toBe(true)
    expect(modes.has('12:thinned') && modes.has('13:thinned')).toBe(true)
    expect([...modes].filter((m) => m.startsWith('14:'))).toEqual(['14:full'])
    expect(features14).toBeGreaterThanOrEqual(COUNT)
  }, 120_000)

  it('is served from the archive to z14; deeper zooms are cut on request', async () => {
    const app = await appAcceptingAnyToken(dir, store)
    try {
      await tileIndexesOf(store).warm('inline')
      const a = await archive()
      for (const z of [8, 11, 12, 13, 14]) {
        const t = a.tiles.find((x) => x.z === z && x.features > 100)
        if (!t) throw new Error(`no z${z} tile with features`)
        const res = await app.inject({
          url: `/api/tiles/homes/mvt/${z}/${t.x}/${t.y}`,
          headers: { ...AUTH, 'accept-encoding': 'gzip' },
        })
        expect(res.statusCode).toBe(200)
        expect(String(res.headers.etag), 'an archived tile').toBe(archivedTag(z, t.x, t.y, res.headers.etag))
        expect(res.rawPayload.equals(t.gz)).toBe(true)
        const layer = new VectorTile(new Pbf(zlib.gunzipSync(res.rawPayload))).layers.homes
        expect(layer?.length).toBe(t.features)
        if (z >= 12) expect(layer?.feature(0).properties.town).toMatch(/^t[0-4]$/)
        else expect(layer?.feature(0).properties.count).toBeGreaterThan(0)
      }
      const z14 = a.tiles.find((t) => t.z === 14 && t.features > 0)
      if (!z14) throw new Error('no z14 tile')
      const cut = [0, 1].flatMap((dx) => [0, 1].map((dy) => [15, z14.x * 2 + dx, z14.y * 2 + dy] as const))
      let features = 0
      for (const [z, x, y] of cut) {
        const res = await app.inject({ url: `/api/tiles/homes/mvt/${z}/${x}/${y}`, headers: AUTH })
        expect([200, 204], `${z}/${x}/${y}`).toContain(res.statusCode)
        expect(String(res.headers.etag), `${z}/${x}/${y} is cut`).not.toBe(
          archivedTag(z, x, y, res.headers.etag),
        )
        features += Number(res.headers['x-tile-features'] ?? 0)
      }
      expect(features).toBeGreaterThan(0)
    } finally {
      await app.close()
    }
  }, 120_000)

  it('is not rendered in memory on a store without a file (each server would spend minutes on it)', async () => {
    const other = promisedStore(store)
    const indexes = new TileIndexes(other, { build: 'worker' })
    try {
      await indexes.warm('worker')
      expect(other.location).toBeNull()
      expect(indexes.archives.size(source.id)).toBe(0)
    } finally {
      await indexes.pool?.close()
    }
  }, 120_000)
})
