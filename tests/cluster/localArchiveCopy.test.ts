import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Catalog, DatasetDef, VectorSourceDef } from '../../src/server/store/catalog'
import { openPgStore, type PgStore } from '../../src/server/store/pg/pgStore'
import { testPg, type TestPg } from '../../src/server/store/pg/testing/pgTestDatabase'
import { serverSettings } from '../../src/server/appSettings'
import { LocalArchiveCopy } from '../../src/server/tiles/localArchiveCopy'
import { SharedArchives, storeRenderData } from '../../src/server/tiles/sharedArchives'
import { TileCache } from '../../src/server/tiles/tileCache'
import { tileIndexesOf } from '../../src/server/tiles/tileIndexes'
import { squareRing } from '../../src/server/tiles/testing/archiveTesting'
import { ARCHIVE_POLICY } from '../../src/server/tiles/tilePolicy'

// PostgreSQL mode (docs/adr/0003): a server keeps a local copy of the shared set it serves, filled
// from the database after the set is complete, and serves cold tiles from it once it is whole —
// every tile's bytes, ETag, feature count and mode equal to the database's, no database read for
// them — and an import's new set gets its own copy after the switch.
// The in-memory limit is lowered for this file (500 features instead of 100,000): which datasets
// go to the shared archive is the only thing it changes, and the renders stay short.

const d: DatasetDef = { id: 'homes', geometry: 'polygon', fields: [{ name: 'town', type: 'string' }] }
const source: VectorSourceDef = { id: 'homes_mvt', path: 'homes', dataset: 'homes', minzoom: 0, maxzoom: 16 }
const catalog: Catalog = { datasets: [d], tables: [], sources: [source] }
const LIMIT = 500

function homes(r: number) {
  const n = LIMIT + 1
  const side = Math.ceil(Math.sqrt(n))
  return Array.from({ length: n }, (_, i) => ({
    geometry: {
      type: 'Polygon' as const,
      coordinates: [
        squareRing(-106.7 + ((i % side) / side) * 0.2, 35.1 + (Math.floor(i / side) / side) * 0.16, r),
      ],
    },
    properties: { town: `t${i % 5}` },
  }))
}

let pg: TestPg
let dir: string
const stores: PgStore[] = []
const limitBefore = ARCHIVE_POLICY.inMemoryMaxFeatures

async function server(): Promise<{ store: PgStore; shared: SharedArchives }> {
  const store = await openPgStore(pg.url, catalog)
  stores.push(store)
  const shared = new SharedArchives(store, store.tileArchiveStorage, serverSettings().tiles)
  return { store, shared }
}

async function render(leader: { store: PgStore; shared: SharedArchives }): Promise<void> {
  leader.shared.renderWhen(() => true)
  await leader.shared.render('homes', storeRenderData(leader.store, d))
}

/** Every tile of the set, plus tiles the set lacks (empty: 204 with an ETag) at every zoom. */
async function keys(store: PgStore, version: number): Promise<[number, number, number][]> {
  const out: [number, number, number][] = []
  for await (const t of store.tileArchiveStorage.tiles('homes_mvt', version)) out.push([t.z, t.x, t.y])
  const have = new Set(out.map((k) => k.join('/')))
  for (let z = 1; z <= 14; z++) if (!have.has(`${z}/0/0`)) out.push([z, 0, 0])
  return out
}

beforeAll(async () => {
  ARCHIVE_POLICY.inMemoryMaxFeatures = LIMIT
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-local-copy-'))
  pg = await testPg()
  const loader = await openPgStore(pg.url, catalog)
  await loader.replaceDataset('homes', homes(0.0001))
  await loader.close()
}, 60_000)

afterAll(async () => {
  ARCHIVE_POLICY.inMemoryMaxFeatures = limitBefore
  for (const s of stores) await s.close()
  await pg?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
}, 30_000)

describe('local copy of a shared archive set', () => {
  it('serves every tile as the database does, without reading it; an import gets a new copy', async () => {
    const leader = await server()
    await render(leader)
    const copying = await server()
    copying.shared.keepLocalCopies(dir)
    const reading = await server()
    await copying.shared.refresh('homes')
    await copying.shared.localCopiesDone()
    const set = await copying.store.tileArchiveStorage.current('homes_mvt')
    expect(copying.shared.copied.map((c) => [c.version, c.tiles])).toEqual([[1, set?.tiles]])
    expect(fs.readdirSync(dir)).toEqual(['homes_mvt@1.tiles'])

    const compare = async (version: number) => {
      const list = await keys(copying.store, version)
      expect(list.length).toBeGreaterThan(100)
      for (const [z, x, y] of list) {
        const [a, b] = [await copying.shared.get(source, z, x, y), await reading.shared.get(source, z, x, y)]
        expect(a, `${z}/${x}/${y}`).toBeDefined()
        expect([a?.etag, a?.features, a?.mode], `${z}/${x}/${y}`).toEqual([b?.etag, b?.features, b?.mode])
        expect(a?.gz === null ? null : Buffer.compare(a!.gz, b!.gz!), `${z}/${x}/${y}`).toBe(
          b?.gz === null ? null : 0,
        )
      }
      return list.length
    }
    const n1 = await compare(1)
    expect(copying.shared.reads).toBe(0)
    expect(copying.shared.localReads).toBe(n1)
    expect(reading.shared.reads).toBe(n1)

    // An import: version 2 (larger squares) is rendered; the copying server switches at its
    // completion and copies it; its tiles are version 2's, again without database reads.
    const loader = await openPgStore(pg.url, catalog)
    await loader.replaceDataset('homes', homes(0.0003))
    await loader.close()
    await render(leader)
    await copying.shared.refresh('homes')
    await reading.shared.refresh('homes')
    expect(await copying.shared.version('homes_mvt')).toBe(2)
    await copying.shared.localCopiesDone()
    expect(copying.shared.copied.map((c) => c.version)).toEqual([1, 2])
    expect(fs.readdirSync(dir)).toContain('homes_mvt@2.tiles')
    const readsBefore = copying.shared.reads
    await compare(2)
    expect(copying.shared.reads).toBe(readsBefore)
  }, 30_000)

  it('a restarted server reuses its whole copy, no tile read from the database; a truncated or altered one is copied again', async () => {
    const reading = await server()
    const file = path.join(dir, 'homes_mvt@2.tiles')
    expect(fs.existsSync(file)).toBe(true)
    /** A server started on `dir` (a restart), counting the set's tile streams from the database. */
    const restart = async () => {
      const store = await openPgStore(pg.url, catalog)
      stores.push(store)
      const storage = store.tileArchiveStorage
      const streams = { n: 0 }
      const counting = new Proxy(storage, {
        get(target, key, receiver) {
          if (key === 'tiles') streams.n += 1
          const v = Reflect.get(target, key, receiver) as unknown
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
        },
      })
      const shared = new SharedArchives(store, counting, serverSettings().tiles)
      shared.keepLocalCopies(dir)
      await shared.refresh('homes')
      await shared.localCopiesDone()
      return { shared, streams }
    }
    const same = async (shared: SharedArchives) => {
      for (const [z, x, y] of await keys(reading.store, 2)) {
        const [a, b] = [await shared.get(source, z, x, y), await reading.shared.get(source, z, x, y)]
        expect([a?.etag, a?.features, a?.mode], `${z}/${x}/${y}`).toEqual([b?.etag, b?.features, b?.mode])
        expect(a?.gz === null ? null : Buffer.compare(a!.gz, b!.gz!), `${z}/${x}/${y}`).toBe(
          b?.gz === null ? null : 0,
        )
      }
      expect(shared.reads).toBe(0)
    }
    const bytes = fs.readFileSync(file)
    const again = await restart()
    expect(again.shared.copied).toEqual([])
    expect(again.shared.reused.map((c) => [c.version, c.tiles])).toEqual([[2, expect.any(Number)]])
    expect(again.streams.n).toBe(0)
    expect(fs.readFileSync(file).equals(bytes)).toBe(true)
    await same(again.shared)

    // A copy cut short (a crash, a full disk) or altered is never served: copied again.
    fs.truncateSync(file, bytes.length - 7)
    const afterCut = await restart()
    expect(afterCut.shared.reused).toEqual([])
    expect(afterCut.shared.copied.map((c) => c.version)).toEqual([2])
    expect(afterCut.streams.n).toBe(1)
    expect(fs.readFileSync(file).equals(bytes)).toBe(true)
    await same(afterCut.shared)
    const altered = Buffer.from(bytes)
    altered[10] = (altered[10] as number) ^ 0xff
    fs.writeFileSync(file, altered)
    const afterFlip = await restart()
    expect(afterFlip.shared.reused).toEqual([])
    expect(afterFlip.shared.copied.map((c) => c.version)).toEqual([2])
    expect(fs.readFileSync(file).equals(bytes)).toBe(true)
    await same(afterFlip.shared)
  }, 30_000)

  it('a copy dropped while reads are under way answers them all, then is gone', async () => {
    const { store } = await server()
    const set = (await store.tileArchiveStorage.current('homes_mvt'))!
    const own = path.join(dir, 'dropping')
    const copy = (await LocalArchiveCopy.fill(store.tileArchiveStorage, set, own))!
    const list = await keys(store, set.version)
    const want = await Promise.all(list.map(([z, x, y]) => copy.tile(z, x, y)))
    expect(want.filter((t) => t && t.gz.length > 0).length).toBeGreaterThan(50)
    // Every read issued, then the copy dropped before any of them resolved.
    const reads = list.map(([z, x, y]) => copy.tile(z, x, y))
    const dropping = copy.drop()
    expect(await Promise.all(reads)).toEqual(want)
    await dropping
    expect(fs.readdirSync(own)).toEqual([])
  }, 30_000)

  it('keeps archived tiles and tiles cut on request in one cache (one budget, tiles.cacheMaxMB)', async () => {
    const store = await openPgStore(pg.url, catalog)
    stores.push(store)
    const settings = serverSettings().tiles
    const cache = new TileCache(store, settings)
    const shared = tileIndexesOf(store).shared
    expect(shared?.cache.maxSize).toBe(settings.maxCacheBytes)
    const [first] = await keys(store, 2)
    const [z, x, y] = first!
    const archived = await cache.get(source, z, x, y)
    expect(shared?.reads).toBe(1)
    // z15 is cut on request; it lands in the very cache the archived tile is in.
    const cut = await cache.get(source, 15, 6681, 12957)
    expect(cut.etag).not.toBe(archived.etag)
    expect(shared?.cache.size).toBe(2)
    expect(shared?.cache.has(`homes_mvt@2/15/6681/12957`)).toBe(true)
  }, 30_000)
})
