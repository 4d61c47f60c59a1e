import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { afterAll, describe, expect, it } from 'vitest'
import { serverSettings } from '../appSettings'
import type { AppStore } from '../store/AppStore'
import type { Catalog, DatasetDef, VectorSourceDef } from '../store/catalog'
import { openPgStore } from '../store/pg/pgStore'
import { testPg } from '../store/pg/testing/pgTestDatabase'
import { openStore } from '../store/sqliteStore'
import { promisedStore } from '../store/testing/promisedStore'
import { buildTile } from './buildTile'
import { archiveContentKey, archiveStamp } from './renderArchive'
import { saveTileData } from './saveTileData'
import { readTileArchive, tileArchivePath, tileKey, writeTileArchive } from './tileArchiveFile'
import { buildTileData, spatialIndex } from './tileData'
import { TileIndexes, tileIndexesOf } from './tileIndexes'
import { appAcceptingAnyToken, squareRing, tilesOverBox } from './testing/archiveTesting'
import { ARCHIVE_POLICY, archivedInMemory, archiveZooms } from './tilePolicy'

const d: DatasetDef = {
  id: 'feeders',
  geometry: 'line',
  fields: [
    { name: 'kind', type: 'string' },
    { name: 'kv', type: 'number' },
  ],
}
const full: VectorSourceDef = {
  id: 'feeders_mvt',
  path: 'feeders',
  dataset: 'feeders',
  minzoom: 2,
  maxzoom: 16,
}
// Thinned below z12 (at most 8 features, none under 4 px): descent must not stop where features were dropped.
const thin: VectorSourceDef = {
  id: 'feeders_thin',
  path: 'feeders-thin',
  dataset: 'feeders',
  minzoom: 0,
  maxzoom: 13,
  generalize: { thinMaxZoom: 11, thinFeatures: 8, minSizePx: 4 },
}
// Small polygons (like historic fire perimeters) vanish at low zoom: deeper tiles must still be kept.
const burnsSet: DatasetDef = { id: 'burns', geometry: 'polygon', fields: [{ name: 'acres', type: 'number' }] }
const burns: VectorSourceDef = { id: 'burns_mvt', path: 'burns', dataset: 'burns', minzoom: 5, maxzoom: 13 }
const catalog: Catalog = { datasets: [d, burnsSet], tables: [], sources: [full, thin, burns] }
const limits = serverSettings().tiles
const AUTH = { authorization: 'Bearer t' }

/** Deterministic lines around Albuquerque: 2–6 vertices, some long, most short. */
function lines(n: number, seed: number) {
  let s = seed
  const rnd = (): number => {
    s = (s * 1664525 + 1013904223) % 2 ** 32
    return s / 2 ** 32
  }
  return Array.from({ length: n }, (_, i) => {
    const len = i % 10 === 0 ? 0.5 : 0.01 + rnd() * 0.05
    let lon = -107 + rnd() * 1.5
    let lat = 34.5 + rnd() * 1.2
    const coordinates: [number, number][] = [[lon, lat]]
    for (let v = 0; v < 1 + (i % 5); v++) {
      lon += (rnd() - 0.5) * len
      lat += (rnd() - 0.5) * len
      coordinates.push([lon, lat])
    }
    return {
      geometry: { type: 'LineString' as const, coordinates },
      properties: { kind: `k${i % 3}`, kv: 12 + (i % 4) },
    }
  })
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-archive-'))
const store = openStore(dir, catalog)
store.replaceDataset('feeders', lines(300, 7))
const saved = await saveTileData(store, 'feeders')
store.replaceDataset(
  'burns',
  Array.from({ length: 60 }, (_, i) => {
    const [lon, lat] = [-107 + (i % 10) * 0.15, 34.6 + Math.floor(i / 10) * 0.18]
    const r = 0.001 + (i % 7) * 0.0004
    const ring = squareRing(lon, lat, r)
    return { geometry: { type: 'Polygon' as const, coordinates: [ring] }, properties: { acres: 10 + i } }
  }),
)
await saveTileData(store, 'burns')
afterAll(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

function ready(dataset: DatasetDef = d) {
  const data = buildTileData(dataset, store.tileRows(dataset.id))
  return { data, index: spatialIndex(data) }
}

async function archiveOf(source: VectorSourceDef) {
  const file = tileArchivePath(store.location as string, source.id)
  const a = await readTileArchive(file, await archiveStamp(store, source, limits))
  if (!a) throw new Error(`no archive for ${source.id}`)
  return a
}

/** Every tile of zoom z over the data's box. */
function tilesOver(z: number): [number, number, number][] {
  return tilesOverBox(z, [-107.6, 34, -105, 36.5]).map(([x, y]) => [z, x, y])
}

describe('tile archive (pre-rendered small sources)', () => {
  it('is written at import for every source of a small dataset', () => {
    expect(saved?.archived).toBeGreaterThan(100)
    for (const s of [full, thin, burns])
      expect(fs.existsSync(tileArchivePath(store.location as string, s.id))).toBe(true)
  })

  it('holds exactly the tiles cut on request, and every tile it lacks is empty', async () => {
    for (const source of [full, thin, burns]) {
      const r = ready(source.dataset === 'burns' ? burnsSet : d)
      const a = await archiveOf(source)
      const held = new Map(a.tiles.map((t) => [tileKey(t.z, t.x, t.y), t]))
      expect(a.maxZoom).toBe(Math.min(source.maxzoom, ARCHIVE_POLICY.maxZoom))
      expect(a.tiles.every((t) => t.z >= source.minzoom && t.z <= a.maxZoom)).toBe(true)
      let compared = 0
      for (const t of a.tiles) {
        if (t.features === 0) continue
        const cut = await buildTile(store, source, t.z, t.x, t.y, limits, 1, r)
        expect(t.features, `${source.id} ${t.z}/${t.x}/${t.y}`).toBe(cut.features)
        expect(Buffer.from(zlib.gunzipSync(t.gz))).toEqual(Buffer.from(cut.pbf))
        compared++
      }
      expect(compared).toBeGreaterThan(source === burns ? 40 : 20)
      for (const z of [source.minzoom, 6, 9, 11, 12, 14]) {
        if (z > a.maxZoom) continue
        for (const [tz, x, y] of tilesOver(z)) {
          if (held.has(tileKey(tz, x, y))) continue
          expect(
            (await buildTile(store, source, tz, x, y, limits, 1, r)).features,
            `${source.id} ${tz}/${x}/${y}`,
          ).toBe(0)
        }
      }
    }
  })

  it('is served by the app (gzip or raw, ETag, 204 for an archived empty tile) and never for other data', async () => {
    const app = await appAcceptingAnyToken(dir, store)
    try {
      await tileIndexesOf(store).warm('inline')
      const a = await archiveOf(full)
      const some = a.tiles.find((t) => t.z === 12 && t.features > 3)
      const empty = a.tiles.find((t) => t.features === 0)
      if (!some || !empty) throw new Error('archive lacks a z12 tile or an empty tile')
      const url = `/api/tiles/feeders/mvt/${some.z}/${some.x}/${some.y}`
      const gz = await app.inject({ url, headers: { ...AUTH, 'accept-encoding': 'gzip' } })
      expect(gz.statusCode).toBe(200)
      expect(gz.headers['content-encoding']).toBe('gzip')
      expect(gz.rawPayload).toEqual(some.gz)
      expect(String(gz.headers.etag)).toMatch(/^"a/)
      const raw = await app.inject({ url, headers: AUTH })
      expect(raw.headers['content-encoding']).toBeUndefined()
      const layer = new VectorTile(new Pbf(raw.rawPayload)).layers.feeders
      expect(layer?.length).toBe(some.features)
      expect(layer?.feature(0).properties.kind).toMatch(/^k[012]$/)
      const again = await app.inject({ url, headers: { ...AUTH, 'if-none-match': String(gz.headers.etag) } })
      expect(again.statusCode).toBe(304)
      const none = await app.inject({
        url: `/api/tiles/feeders/mvt/${empty.z}/${empty.x}/${empty.y}`,
        headers: AUTH,
      })
      expect(none.statusCode).toBe(204)

      // New data: the archive of the old version is ignored (tiles are cut from the new data).
      store.replaceDataset('feeders', lines(40, 99))
      const after = await app.inject({ url, headers: { ...AUTH, 'accept-encoding': 'gzip' } })
      expect(String(after.headers.etag)).not.toMatch(/^"a/)
      if (after.statusCode === 200) expect(after.rawPayload).not.toEqual(some.gz)
    } finally {
      await app.close()
      store.replaceDataset('feeders', lines(300, 7))
      await saveTileData(store, 'feeders')
    }
  })

  it('is refused when stale (other data or other content rules) or unreadable', async () => {
    const file = tileArchivePath(store.location as string, full.id)
    const stamp = await archiveStamp(store, full, limits)
    expect(await readTileArchive(file, stamp)).not.toBeNull()
    expect(await readTileArchive(file, { ...stamp, version: stamp.version + 1 })).toBeNull()
    expect(await readTileArchive(file, { ...stamp, content: `${stamp.content} ` })).toBeNull()
    expect(
      await readTileArchive(file, await archiveStamp(store, full, { ...limits, maxGzipBytes: 1000 })),
    ).toBeNull()
    const bad = path.join(dir, 'tile-index', 'bad.tiles')
    fs.writeFileSync(bad, 'garbage')
    expect(await readTileArchive(bad, stamp)).toBeNull()
    writeTileArchive(bad, 'x', stamp, { minZoom: 0, maxZoom: 3 }, [
      { z: 3, x: 1, y: 2, gz: Buffer.from([1, 2, 3]), features: 1, mode: 'full' },
    ])
    expect((await readTileArchive(bad, stamp))?.tiles).toEqual([
      { z: 3, x: 1, y: 2, gz: Buffer.from([1, 2, 3]), features: 1, mode: 'full' },
    ])
    fs.truncateSync(bad, fs.statSync(bad).size - 1)
    expect(await readTileArchive(bad, stamp)).toBeNull()
  })

  it('holds every zoom from the source minzoom down to its maxzoom or z14, whatever the size', () => {
    expect(archiveZooms(full, 300)).toEqual({ minZoom: 2, maxZoom: 14 })
    expect(archiveZooms({ ...full, maxzoom: 10 }, 300)).toEqual({ minZoom: 2, maxZoom: 10 })
    expect(archiveZooms({ ...full, minzoom: 15 }, 300)).toBeNull()
    expect(archiveZooms(full, 5_000_000)).toEqual({ minZoom: 2, maxZoom: 14 })
    expect(archiveZooms(full, 0)).toBeNull()
    expect(archivedInMemory(ARCHIVE_POLICY.inMemoryMaxFeatures)).toBe(true)
    expect(archivedInMemory(ARCHIVE_POLICY.inMemoryMaxFeatures + 1)).toBe(false)
  })

  it('is rendered in a worker when missing at start, then served', async () => {
    const file = tileArchivePath(store.location as string, full.id)
    fs.rmSync(file)
    const indexes = new TileIndexes(store, { build: 'worker' })
    try {
      await indexes.warm('worker')
      const deadline = Date.now() + 30_000
      while (indexes.archives.size(full.id) === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100))
      expect(indexes.archives.size(full.id)).toBe((await archiveOf(full)).tiles.length)
      expect(fs.existsSync(file)).toBe(true)
    } finally {
      await indexes.pool?.close()
    }
  }, 60_000)

  // A store without a file (PostgreSQL; the SQLite store behind promises): each server renders
  // the archives in memory after the tile data, the very tiles the file holds.
  it.each(['postgres', 'sqlite without a file'])(
    'is rendered in memory on a store without a file (%s), the same tiles as the file',
    async (kind) => {
      let other: AppStore
      let done: () => Promise<void>
      if (kind === 'postgres') {
        const t = await testPg()
        const pg = await openPgStore(t.url, catalog, { max: 2 })
        await pg.replaceDataset('feeders', lines(300, 7))
        other = pg
        done = async () => {
          await pg.close()
          await t.drop()
        }
      } else {
        other = promisedStore(store)
        done = async () => undefined
      }
      const indexes = new TileIndexes(other, { build: 'worker' })
      try {
        expect(other.location).toBeNull()
        await indexes.warm('worker')
        const want = await archiveOf(full)
        expect(indexes.archives.size(full.id)).toBe(want.tiles.length)
        const info = await other.info('feeders')
        const key = archiveContentKey(other, full, limits, info.count)
        for (const t of want.tiles) {
          const got = indexes.archives.get(full.id, info.version, key, t.z, t.x, t.y)
          expect(got?.features, `${t.z}/${t.x}/${t.y}`).toBe(t.features)
          expect(Buffer.from(got?.gz ?? []).equals(t.gz), `${t.z}/${t.x}/${t.y}`).toBe(true)
        }
      } finally {
        await indexes.pool?.close()
        await done()
      }
    },
    60_000,
  )
})
