import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import type { FastifyInstance } from 'fastify'
import Pbf from 'pbf'
import { PMTiles, type RangeResponse, type Source as PmtilesSource } from 'pmtiles'
import type { PmtilesSource as PmtilesSourceDef } from '../../src/shared/config'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshDataset } from '../../src/server/cluster/refreshDataset'
import { ClusterNode } from '../../src/server/cluster/clusterNode'
import type { Catalog, DatasetDef, VectorSourceDef } from '../../src/server/store/catalog'
import { openPgStore, type PgStore } from '../../src/server/store/pg/pgStore'
import { testPg, type TestPg } from '../../src/server/store/pg/testing/pgTestDatabase'
import { openStore, type SqliteStore } from '../../src/server/store/sqliteStore'
import { buildApp } from '../../src/server/app'
import { serverSettings } from '../../src/server/appSettings'
import { exportPmtiles } from '../../src/server/tiles/exportPmtiles'
import { saveTileData } from '../../src/server/tiles/saveTileData'
import { appAcceptingAnyToken, squareRing, tilesOverBox } from '../../src/server/tiles/testing/archiveTesting'
import { tileIndexesOf } from '../../src/server/tiles/tileIndexes'
import { ARCHIVE_POLICY } from '../../src/server/tiles/tilePolicy'

// PostgreSQL mode, a dataset over the in-memory limit (100,001 buildings): two servers on one
// database serve its tiles to z14 from ONE archive the leader rendered into the database — the
// same bytes and ETags as SQLite mode's archive, no tile cut and no tile data built by either to
// serve them — and an import switches both from the old archive to the new one, never back and
// never through tiles cut from the new data.

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
const COUNT = ARCHIVE_POLICY.inMemoryMaxFeatures + 1
const [WEST, SOUTH, SPAN_X, SPAN_Y] = [-106.7, 35.1, 0.2, 0.16]
const AUTH = { authorization: 'Bearer t', 'accept-encoding': 'gzip' }

function homes(prefix = 't') {
  const side = Math.ceil(Math.sqrt(COUNT))
  return Array.from({ length: COUNT }, (_, i) => {
    const lon = WEST + ((i % side) / side) * SPAN_X
    const lat = SOUTH + (Math.floor(i / side) / side) * SPAN_Y
    const r = 0.00005 + (i % 13) * 0.00001
    return {
      geometry: { type: 'Polygon' as const, coordinates: [squareRing(lon, lat, r)] },
      properties: { town: `${prefix}${i % 5}`, stories: 1 + (i % 3) },
    }
  })
}

/** Every tile of zoom z over the town (and one around it), z0–14, plus two z15 tiles. */
function tileList(): [number, number, number][] {
  const out: [number, number, number][] = []
  for (let z = 0; z <= 14; z++) {
    const pad = 360 / 2 ** z
    const all = tilesOverBox(z, [WEST - pad, SOUTH - pad / 2, WEST + SPAN_X + pad, SOUTH + SPAN_Y + pad / 2])
    // Every tile to z12, a spread of the z13–14 ones (the request count stays small).
    const step = z <= 12 ? 1 : z === 13 ? 3 : 9
    all.forEach(([x, y], i) => {
      if (i % step === 0 && x >= 0 && y >= 0 && x < 2 ** z && y < 2 ** z) out.push([z, x, y])
    })
  }
  return out
}

interface Node {
  store: PgStore
  app: FastifyInstance
  node: ClusterNode
}

let pg: TestPg
let dir: string
let sqlite: SqliteStore
let sqliteApp: FastifyInstance
const nodes: Node[] = []

async function startNode(): Promise<Node> {
  const store = await openPgStore(pg.url, catalog)
  const app = await appAcceptingAnyToken(dir, store)
  const indexes = tileIndexesOf(store)
  const node = new ClusterNode({
    url: pg.url,
    store,
    refresh: (id, version) => refreshDataset(app, id, version),
    warn: () => undefined,
    leaderRetryMs: 200,
    onArchive: (id) => void indexes.shared?.refresh(id ?? undefined),
  })
  indexes.shareArchives(node.leader)
  await node.listen()
  await node.leader.start()
  const n = { store, app, node }
  nodes.push(n)
  return n
}

async function until<T>(what: string, fn: () => Promise<T | null | false> | T | null | false, ms = 15_000) {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function tile(app: FastifyInstance, [z, x, y]: readonly [number, number, number]) {
  const res = await app.inject({ url: `/api/tiles/homes/mvt/${z}/${x}/${y}`, headers: AUTH })
  return {
    status: res.statusCode,
    etag: String(res.headers.etag),
    body: res.rawPayload,
    gzip: res.headers['content-encoding'] === 'gzip',
  }
}

let a: Node
let b: Node
// Blocks of at most 20,000 features (default 200,000): the town is rendered in several blocks,
// at z12 and above it, and their tiles must still be SQLite mode's.
const blockFeaturesBefore = ARCHIVE_POLICY.blockFeatures
beforeAll(async () => {
  ARCHIVE_POLICY.blockFeatures = 20_000
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-shared-archive-'))
  pg = await testPg()
  const features = homes()
  // SQLite mode: the same data, its archive file rendered as at import.
  sqlite = openStore(dir, catalog)
  sqlite.replaceDataset('homes', features)
  await saveTileData(sqlite, 'homes')
  sqliteApp = await appAcceptingAnyToken(dir, sqlite)
  await tileIndexesOf(sqlite).warm('inline')
  // PostgreSQL mode: the data imported once, then two servers; the first to start leads.
  const loader = await openPgStore(pg.url, catalog)
  await loader.replaceDataset('homes', features)
  await loader.close()
  a = await startNode()
  b = await startNode()
  expect(a.node.leader.isLeader).toBe(true)
  expect(b.node.leader.isLeader).toBe(false)
  await Promise.all([tileIndexesOf(a.store).warm('inline'), tileIndexesOf(b.store).warm('inline')])
}, 180_000)

afterAll(async () => {
  ARCHIVE_POLICY.blockFeatures = blockFeaturesBefore
  for (const n of nodes) {
    await n.app.close()
    await n.node.close()
    await n.store.close()
  }
  await sqliteApp?.close()
  sqlite?.close()
  await pg?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
}, 60_000)

describe('shared tile archives (PostgreSQL mode, two servers)', () => {
  it('renders once on the leader; both servers serve its tiles byte for byte as SQLite mode, none cut', async () => {
    const [ia, ib] = [tileIndexesOf(a.store), tileIndexesOf(b.store)]
    await ia.renderShared('homes')
    // The follower hears of the complete set through the NOTIFY.
    await until('the follower to switch', async () => (await ib.shared?.version('homes_mvt')) === 1)
    expect(ia.shared?.rendered.map((r) => r.version)).toEqual([1])
    expect(ib.shared?.rendered).toEqual([])
    // Rendered by blocks (z12 and below them, read by box from the store; z0–11 per-cell counts):
    // the leader never held the whole dataset's tile data, and the tiles below are still SQLite mode's.
    expect(ia.shared?.blocksRead).toBeGreaterThan(1)
    const list = tileList()
    let full = 0
    for (const t of list) {
      const want = await tile(sqliteApp, t)
      for (const n of [a, b]) {
        const got = await tile(n.app, t)
        expect([got.status, got.etag], t.join('/')).toEqual([want.status, want.etag])
        expect(got.body.equals(want.body), t.join('/')).toBe(true)
      }
      if (want.status === 200) full++
    }
    expect(full).toBeGreaterThan(40)
    // No tile cut on request and no tile data built: every tile came from the shared archive.
    for (const n of [a, b]) {
      const i = tileIndexesOf(n.store)
      expect(i.cuts).toBe(0)
      expect(i.builds).toBe(0)
      expect(i.shared?.reads).toBeGreaterThan(list.length / 2)
    }
    // Past z14 tiles are cut on request from the database rows (no tile data held either).
    const z15 = await tile(a.app, [15, 2 * list.at(-1)![1], 2 * list.at(-1)![2]])
    expect([200, 204]).toContain(z15.status)
    expect(tileIndexesOf(a.store).cuts).toBe(1)
    expect(tileIndexesOf(a.store).builds).toBe(0)
  }, 60_000)

  it('an import switches both servers to the new archive when it is complete, never a mixed state', async () => {
    const probe: [number, number, number][] = [
      [12, 0, 0],
      [14, 0, 0],
    ]
    // Two tiles with features at z12 and z14.
    const list = tileList()
    for (const [i, z] of [
      [0, 12],
      [1, 14],
    ] as const) {
      for (const t of list.filter((t) => t[0] === z)) {
        if ((await tile(a.app, t)).status === 200) {
          probe[i] = t
          break
        }
      }
    }
    // A z15 tile under the z14 probe that holds features (cut from the rows, past the archive).
    let deep: [number, number, number] | null = null
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const) {
      const t: [number, number, number] = [15, 2 * probe[1]![1] + dx, 2 * probe[1]![2] + dy]
      if (!deep && (await tile(a.app, t)).status === 200) deep = t
    }
    expect(deep).not.toBeNull()
    await tile(b.app, deep!)
    const cutsBefore = new Map([a, b].map((n) => [n, tileIndexesOf(n.store).cuts]))
    const townAt = async (n: Node, t: readonly [number, number, number]) => {
      const got = await tile(n.app, t)
      expect(got.status).toBe(200)
      return String(
        new VectorTile(new Pbf(zlib.gunzipSync(got.body))).layers.homes?.feature(0).properties.town,
      )
    }
    // z15+ show the version z0–14 show: until the switch the old rows' (cut from the serving set's
    // z14 tile), from the switch the new ones' — never the new rows beside the old set.
    const deepSeen: { before: number | null; after: number | null; town: string; committed: boolean }[] = []
    let committed = false
    const tagOf = (etag: string) => etag.slice(1, 12)
    const before = tagOf((await tile(a.app, probe[0]!)).etag)
    const seen = new Map<Node, string[]>([
      [a, []],
      [b, []],
    ])
    const writer = await openPgStore(pg.url, catalog)
    const imported = writer.replaceDataset('homes', homes('n'))
    let done = false
    // Poll both servers while the import commits and the leader renders the new version.
    const polling = (async () => {
      while (!done) {
        for (const n of [a, b])
          for (const t of probe) {
            await new Promise((r) => setTimeout(r, 10))
            const got = await tile(n.app, t)
            expect(got.status).toBe(200)
            expect(got.etag.startsWith('"a'), 'an archived tile, never one cut').toBe(true)
            seen.get(n)!.push(tagOf(got.etag))
          }
        for (const n of [a, b]) {
          const shared = tileIndexesOf(n.store).shared
          const was = committed
          const before = (await shared?.version('homes_mvt')) ?? null
          const town = await townAt(n, deep!)
          deepSeen.push({ before, after: (await shared?.version('homes_mvt')) ?? null, town, committed: was })
        }
      }
    })()
    await imported
    committed = true
    await writer.close()
    await until(
      'both servers on the new archive',
      async () =>
        (await tileIndexesOf(a.store).shared?.version('homes_mvt')) === 2 &&
        (await tileIndexesOf(b.store).shared?.version('homes_mvt')) === 2,
      120_000,
    )
    done = true
    await polling
    for (const n of [a, b]) {
      const tags = seen.get(n)!
      const after = tagOf((await tile(n.app, probe[0]!)).etag)
      expect(after).not.toBe(before)
      // Old archive, then the new one: one switch, never back, nothing else in between.
      const switched = tags.indexOf(after)
      const tail = switched < 0 ? [] : tags.slice(switched)
      expect(tags.slice(0, switched < 0 ? tags.length : switched).every((t) => t === before)).toBe(true)
      expect(tail.every((t) => t === after)).toBe(true)
      // The new tiles hold the new data.
      const got = await tile(n.app, probe[1]!)
      const layer = new VectorTile(new Pbf(zlib.gunzipSync(got.body))).layers.homes
      expect(layer?.feature(0).properties.town).toMatch(/^n[0-4]$/)
      // At most the z15 probe, cut from the new rows after the switch (before: from the set).
      expect(tileIndexesOf(n.store).cuts - cutsBefore.get(n)!).toBeLessThanOrEqual(1)
      expect(tileIndexesOf(n.store).builds).toBe(0)
    }
    expect(tileIndexesOf(a.store).shared?.rendered.map((r) => r.version)).toEqual([1, 2])
    expect(tileIndexesOf(b.store).shared?.rendered).toEqual([])
    for (const p of deepSeen) {
      if (p.after === 1) expect(p.town, 'z15 while the old set serves').toMatch(/^t[0-4]$/)
      if (p.before === 2) expect(p.town, 'z15 after the switch').toMatch(/^n[0-4]$/)
    }
    // The window was seen: after the import's commit, z15 asked while the old set still served.
    expect(deepSeen.some((p) => p.committed && p.after === 1)).toBe(true)
    for (const n of [a, b]) expect(await townAt(n, deep!)).toMatch(/^n[0-4]$/)
  }, 180_000)

  it("exports each store's archive as PMTiles: read back tile by tile (pmtiles package, and Emberline's pmtiles source) equal to the server's tiles", async () => {
    const archiveDir = path.join(dir, 'archives')
    const limits = serverSettings().tiles
    // SQLite: the archive file; PostgreSQL: the shared archive (now of the re-imported data).
    const fromSqlite = await exportPmtiles(sqlite, 'homes', path.join(archiveDir, 'sqlite.pmtiles'), limits)
    const fromPg = await exportPmtiles(a.store, 'homes_mvt', path.join(archiveDir, 'pg.pmtiles'), limits)
    expect([fromSqlite.from, fromPg.from]).toEqual(['archive file', 'shared archive'])
    expect(fromSqlite.version).toBe(1)
    expect(fromPg.version).toBe((await a.store.info('homes')).version)
    expect(fromPg.contents).toBeLessThan(fromPg.addressed + 1)
    const pmSource: PmtilesSourceDef = {
      id: 'homes_pm',
      type: 'pmtiles',
      file: 'pg.pmtiles',
      attribution: 'Test',
      minzoom: 0,
      maxzoom: 14,
    } as PmtilesSourceDef
    const reader = await buildApp({
      dataDir: dir,
      demo: false,
      store: sqlite,
      verifier: {
        verify: async () => ({
          memberId: 'm',
          sessionId: 's',
          organizationId: 'o',
          roles: [],
          expiresAt: new Date(Date.now() + 60_000),
        }),
      },
      sources: { sources: [], featureSources: [], archiveSources: [pmSource], archiveDir, env: {} },
    })
    try {
      for (const [name, app] of [
        ['sqlite.pmtiles', sqliteApp],
        ['pg.pmtiles', a.app],
      ] as const) {
        const pm = new PMTiles(fileSource(path.join(archiveDir, name)))
        const header = await pm.getHeader()
        expect([header.specVersion, header.clustered, header.tileCompression, header.tileType]).toEqual([
          3,
          true,
          2,
          1,
        ])
        let withFeatures = 0
        for (const t of tileList()) {
          const served = await tile(app, t)
          const got = await pm.getZxy(...t)
          if (served.status === 204) {
            expect(got, `${t.join('/')} empty`).toBeUndefined()
            continue
          }
          expect(
            [served.status, served.gzip],
            `${name} ${t.join('/')}: ${served.body.toString().slice(0, 200)}`,
          ).toEqual([200, true])
          const raw = zlib.gunzipSync(served.body)
          expect(Buffer.from(got!.data).equals(raw), `${name} ${t.join('/')}`).toBe(true)
          withFeatures++
          if (name === 'pg.pmtiles') {
            const proxied = await reader.inject({
              url: `/api/sources/homes_pm/tiles/${t.join('/')}`,
              headers: { authorization: 'Bearer t' },
            })
            expect(proxied.statusCode, t.join('/')).toBe(200)
            expect(proxied.rawPayload.equals(raw), `pmtiles source ${t.join('/')}`).toBe(true)
          }
        }
        expect(withFeatures).toBeGreaterThan(40)
      }
    } finally {
      await reader.close()
    }
  }, 60_000)
})

/** A local file as the pmtiles package's range source. */
function fileSource(file: string): PmtilesSource {
  const fd = fs.openSync(file, 'r')
  return {
    getKey: () => file,
    getBytes: async (offset: number, length: number): Promise<RangeResponse> => {
      const buf = Buffer.alloc(length)
      const n = fs.readSync(fd, buf, 0, length, offset)
      return { data: buf.buffer.slice(0, n) as ArrayBuffer }
    },
  }
}
