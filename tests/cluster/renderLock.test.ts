import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Catalog, DatasetDef, VectorSourceDef } from '../../src/server/store/catalog'
import { openPgStore, type PgStore } from '../../src/server/store/pg/pgStore'
import { testPg, type TestPg } from '../../src/server/store/pg/testing/pgTestDatabase'
import { serverSettings } from '../../src/server/appSettings'
import { SharedArchives, storeRenderData } from '../../src/server/tiles/sharedArchives'
import { squareRing } from '../../src/server/tiles/testing/archiveTesting'
import { ARCHIVE_POLICY } from '../../src/server/tiles/tilePolicy'

// PostgreSQL mode: one renderer per shared archive set across a leadership change (docs/adr/0003).
// A leader that loses its leadership stops rendering at its next tile and lets the set's render
// lock go; the new leader waits for that lock, then restarts the unfinished set; while another
// renderer holds the lock nobody else writes the set. The lock is a session advisory lock, so a
// renderer that dies releases it with its connection.
// The in-memory limit is lowered for this file (2,000 features instead of 100,000): which
// datasets go to the shared archive is the only thing it changes, and the render stays short.

const d: DatasetDef = { id: 'homes', geometry: 'polygon', fields: [{ name: 'town', type: 'string' }] }
const source: VectorSourceDef = { id: 'homes_mvt', path: 'homes', dataset: 'homes', minzoom: 0, maxzoom: 16 }
const catalog: Catalog = { datasets: [d], tables: [], sources: [source] }
const LIMIT = 2000
const COUNT = LIMIT + 1

function homes() {
  const side = Math.ceil(Math.sqrt(COUNT))
  return Array.from({ length: COUNT }, (_, i) => ({
    geometry: {
      type: 'Polygon' as const,
      coordinates: [
        squareRing(-106.7 + ((i % side) / side) * 0.2, 35.1 + (Math.floor(i / side) / side) * 0.16, 0.0001),
      ],
    },
    properties: { town: `t${i % 5}` },
  }))
}

let pg: TestPg
const stores: PgStore[] = []
const limitBefore = ARCHIVE_POLICY.inMemoryMaxFeatures

async function server(leads: () => boolean): Promise<{ store: PgStore; shared: SharedArchives }> {
  const store = await openPgStore(pg.url, catalog)
  stores.push(store)
  const shared = new SharedArchives(store, store.tileArchiveStorage, serverSettings().tiles)
  shared.renderWhen(leads)
  return { store, shared }
}

const tileData = (store: PgStore) => storeRenderData(store, d)

async function until(what: string, fn: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function sets(): Promise<{ version: number; complete: boolean; tiles: number }[]> {
  const res = await pg.db.pool.query<{ version: string; complete: boolean; tiles: number }>(
    `SELECT s.version, s.complete, (SELECT count(*)::int FROM tile_archive_tiles t
        WHERE t.source = s.source AND t.version = s.version) AS tiles
       FROM tile_archive_sets s WHERE s.source = 'homes_mvt' ORDER BY s.version`,
  )
  return res.rows.map((r) => ({ version: Number(r.version), complete: r.complete, tiles: r.tiles }))
}

beforeAll(async () => {
  ARCHIVE_POLICY.inMemoryMaxFeatures = LIMIT
  pg = await testPg()
  const loader = await openPgStore(pg.url, catalog)
  await loader.replaceDataset('homes', homes())
  await loader.close()
}, 60_000)

afterAll(async () => {
  ARCHIVE_POLICY.inMemoryMaxFeatures = limitBefore
  for (const s of stores) await s.close()
  await pg?.drop()
}, 30_000)

describe('render lock of a shared archive set', () => {
  it('is held by one session at a time and released with it', async () => {
    const [a, b] = [await server(() => true), await server(() => true)]
    const release = await a.store.tileArchiveStorage.lockRender('homes_mvt', 7)
    expect(release).not.toBeNull()
    expect(await b.store.tileArchiveStorage.lockRender('homes_mvt', 7)).toBeNull()
    // Another set's lock is free.
    const other = await b.store.tileArchiveStorage.lockRender('homes_mvt', 8)
    expect(other).not.toBeNull()
    await other?.()
    await release?.()
    const again = await b.store.tileArchiveStorage.lockRender('homes_mvt', 7)
    expect(again).not.toBeNull()
    await again?.()
  })

  it('a leader waits while another renderer holds the set, then renders it once', async () => {
    const other = await server(() => true)
    const next = await server(() => true)
    // Another renderer (e.g. a former leader finishing its tile) holds the lock: the new leader waits.
    const held = await other.store.tileArchiveStorage.lockRender('homes_mvt', 1)
    expect(held).not.toBeNull()
    const rendering = next.shared.render('homes', tileData(next.store))
    await until('the new leader to wait for the lock', () => next.shared.lockWaits >= 2)
    expect(await sets()).toEqual([])
    await held?.()
    await rendering
    const [set] = await sets()
    expect(set).toMatchObject({ version: 1, complete: true })
    expect(next.shared.rendered.map((r) => [r.version, r.tiles])).toEqual([[1, set?.tiles]])
    expect(set?.tiles).toBeGreaterThan(40)
    // A second leader finds the set complete: no second render.
    await other.shared.render('homes', tileData(other.store))
    expect(other.shared.rendered).toEqual([])
  }, 30_000)

  it('a new leader restarts a set its predecessor left unfinished', async () => {
    // Version 2: the old leader stops after 25 tiles; the set stays unfinished, version 1 serves.
    const loader = await openPgStore(pg.url, catalog)
    await loader.replaceDataset('homes', homes())
    await loader.close()
    let tilesSeen = 0
    const old = await server(() => tilesSeen++ < 25)
    await old.shared.render('homes', tileData(old.store))
    expect(old.shared.rendered).toEqual([])
    const unfinished = (await sets()).find((s) => s.version === 2)
    expect(unfinished).toMatchObject({ complete: false })
    expect(unfinished?.tiles).toBeLessThanOrEqual(25)
    expect(await old.shared.version('homes_mvt')).toBe(1)

    // The new leader's render (the lock is free: the old one let it go when it stopped).
    const next = await server(() => true)
    await next.shared.render('homes', tileData(next.store))
    expect(next.shared.lockWaits).toBe(0)
    const v2 = (await sets()).find((s) => s.version === 2)
    expect(v2).toMatchObject({ complete: true })
    expect(next.shared.rendered.map((r) => [r.version, r.tiles])).toEqual([[2, v2?.tiles]])
    expect(v2?.tiles).toBeGreaterThan(25)
    expect(await next.shared.version('homes_mvt')).toBe(2)
  }, 30_000)
})
