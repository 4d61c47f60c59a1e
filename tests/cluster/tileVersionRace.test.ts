import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import type { FastifyInstance } from 'fastify'
import Pbf from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Catalog, DatasetDef, VectorSourceDef } from '../../src/server/store/catalog'
import { openPgStore, type PgStore } from '../../src/server/store/pg/pgStore'
import { testPg, type TestPg } from '../../src/server/store/pg/testing/pgTestDatabase'
import { appAcceptingAnyToken, squareRing, tilesOverBox } from '../../src/server/tiles/testing/archiveTesting'
import { renderArchive, RenderDataMoved } from '../../src/server/tiles/renderArchive'
import { serverSettings } from '../../src/server/appSettings'
import { tileIndexesOf } from '../../src/server/tiles/tileIndexes'
import { ARCHIVE_POLICY } from '../../src/server/tiles/tilePolicy'

// PostgreSQL mode, the window between an import's commit and a server hearing its notice
// (docs/adr/0003, "Versions and ETags"): server B still holds the dataset's info of version 1
// (its cache is held open for the file: the notice is "not yet heard", deterministically, no
// timing) while A has committed version 2. A tile B cuts then from the store must not carry the
// new rows under version 1's key and ETag; B answers what A (which knows version 2) answers.
// Three paths of a tile cut on request: features read by box (z15 of a shared-archive dataset),
// aggregate cells (a cold level), and tile data built from the rows.
// The in-memory limit is lowered for this file (2,000 features instead of 100,000): it only
// decides which datasets go to the shared archive, and keeps the render short.

const homes: DatasetDef = { id: 'homes', geometry: 'polygon', fields: [{ name: 'town', type: 'string' }] }
const poles: DatasetDef = { id: 'poles', geometry: 'point', fields: [{ name: 'kind', type: 'string' }] }
const spans: DatasetDef = { id: 'spans', geometry: 'line', fields: [{ name: 'kind', type: 'string' }] }
const sources: VectorSourceDef[] = [
  { id: 'homes_mvt', path: 'homes', dataset: 'homes', minzoom: 0, maxzoom: 16 },
  // Per-cell counts to z9: those tiles come from the store's aggregate cells.
  {
    id: 'poles_mvt',
    path: 'poles',
    dataset: 'poles',
    minzoom: 0,
    maxzoom: 16,
    generalize: { aggregateMaxZoom: 9 },
  },
  { id: 'spans_mvt', path: 'spans', dataset: 'spans', minzoom: 0, maxzoom: 16 },
]
const catalog: Catalog = { datasets: [homes, poles, spans], tables: [], sources }
const LIMIT = 2000
const [WEST, SOUTH, SPAN_X, SPAN_Y] = [-106.7, 35.1, 0.2, 0.16]
const AUTH = { authorization: 'Bearer t', 'accept-encoding': 'gzip' }

/** Version 1 ('t…') or 2 ('u…', shifted a little): other attributes, other cells. */
function features(d: DatasetDef, count: number, version: 1 | 2) {
  const side = Math.ceil(Math.sqrt(count))
  const shift = version === 2 ? 0.013 : 0
  return Array.from({ length: count }, (_, i) => {
    const lon = WEST + shift + ((i % side) / side) * SPAN_X
    const lat = SOUTH + shift + (Math.floor(i / side) / side) * SPAN_Y
    const geometry =
      d.geometry === 'polygon'
        ? { type: 'Polygon' as const, coordinates: [squareRing(lon, lat, 0.0001)] }
        : d.geometry === 'point'
          ? { type: 'Point' as const, coordinates: [lon, lat] }
          : {
              type: 'LineString' as const,
              coordinates: [
                [lon, lat],
                [lon + 0.004, lat + 0.003],
              ],
            }
    return { geometry, properties: { [d.fields[0]!.name]: `${version === 1 ? 't' : 'u'}${i % 5}` } }
  })
}

const counts = { homes: LIMIT + 1, poles: 400, spans: 300 }

async function importVersion(version: 1 | 2, through: PgStore): Promise<void> {
  for (const d of [homes, poles, spans])
    await through.replaceDataset(d.id, features(d, counts[d.id as 'homes'], version))
}

let pg: TestPg
let dir: string
let a: { store: PgStore; app: FastifyInstance }
let b: { store: PgStore; app: FastifyInstance }
const limitBefore = ARCHIVE_POLICY.inMemoryMaxFeatures

async function server(infoTtlMs?: number) {
  const store = await openPgStore(pg.url, catalog, { infoTtlMs })
  return { store, app: await appAcceptingAnyToken(dir, store) }
}

async function tile(app: FastifyInstance, layer: string, [z, x, y]: readonly [number, number, number]) {
  const res = await app.inject({ url: `/api/tiles/${layer}/mvt/${z}/${x}/${y}`, headers: AUTH })
  return { status: res.statusCode, etag: String(res.headers.etag), body: res.rawPayload }
}

/** The values of `field` in a tile's layer. */
function values(body: Buffer, layer: string, field: string): Set<unknown> {
  const t = new VectorTile(new Pbf(zlib.gunzipSync(body)))
  const l = t.layers[layer]
  const out = new Set<unknown>()
  for (let i = 0; i < (l?.length ?? 0); i++) out.add(l!.feature(i).properties[field])
  return out
}

/** A tile of zoom z near the middle of the town (k-th along, so each case asks a cold one). */
function townTile(z: number, k = 0): [number, number, number] {
  const mid = [WEST + SPAN_X / 2, SOUTH + SPAN_Y / 2] as const
  const [x, y] = tilesOverBox(z, [mid[0], mid[1], mid[0] + 0.09, mid[1]])[k]!
  return [z, x, y]
}

beforeAll(async () => {
  ARCHIVE_POLICY.inMemoryMaxFeatures = LIMIT
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-tile-race-'))
  pg = await testPg()
  a = await server()
  // B trusts its cached infos until told (its notices never come in this file).
  b = await server(3_600_000)
  await importVersion(1, a.store)
  // A leads: the shared archive of homes, version 1.
  const ia = tileIndexesOf(a.store)
  ia.shared?.renderWhen(() => true)
  await ia.renderShared('homes')
  expect(await ia.shared?.version('homes_mvt')).toBe(1)
}, 60_000)

afterAll(async () => {
  ARCHIVE_POLICY.inMemoryMaxFeatures = limitBefore
  for (const n of [a, b]) {
    await n?.app.close()
    await n?.store.close()
  }
  await pg?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
}, 30_000)

describe('a tile cut between an import and its notice (PostgreSQL mode, two servers)', () => {
  it('is keyed, cached and tagged by the version of the rows it was cut from', async () => {
    // Before the import, B serves version 1 and holds each dataset's info of version 1: homes
    // from its shared set (z14), poles' tile data (z12), spans' info only (no tile asked yet).
    expect((await tile(b.app, 'homes', townTile(14))).status).toBe(200)
    expect((await tile(b.app, 'poles', townTile(12))).status).toBe(200)
    expect((await b.store.info('spans')).version).toBe(1)

    await importVersion(2, a.store)
    expect((await a.store.info('homes')).version).toBe(2)
    expect((await b.store.info('homes')).version).toBe(1)

    // z15 of homes: the new set is not rendered, so the source shows version 1 at every zoom (cut
    // from the set's z14) — never the new rows under version 1's key.
    const z15 = townTile(15, 1)
    const gotHomes = await tile(b.app, 'homes', z15)
    expect(gotHomes.status).toBe(200)
    const towns = [...values(gotHomes.body, 'homes', 'town')]
    expect(towns.length > 0 && towns.every((t) => String(t).startsWith('t')), towns.join()).toBe(true)
    expect(gotHomes).toEqual(await tile(a.app, 'homes', z15))

    // A cold aggregated level of poles: the cells read are version 2's — so is the key.
    const z5 = townTile(5)
    const gotCells = await tile(b.app, 'poles', z5)
    expect(gotCells.status).toBe(200)
    expect(gotCells).toEqual(await tile(a.app, 'poles', z5))

    // spans' tile data built from the rows read now (version 2): keyed by version 2.
    const z13 = townTile(13, 1)
    const gotSpans = await tile(b.app, 'spans', z13)
    expect(gotSpans.status).toBe(200)
    expect([...values(gotSpans.body, 'spans', 'kind')].every((k) => String(k).startsWith('u'))).toBe(true)
    expect(gotSpans).toEqual(await tile(a.app, 'spans', z13))

    // B has learnt of the commit from the rows themselves (its notice still unheard).
    for (const id of ['homes', 'poles', 'spans']) expect((await b.store.info(id)).version).toBe(2)

    // The switch: A completes version 2's set; B (told of it) serves it and cuts z15 from the rows.
    await tileIndexesOf(a.store).renderShared('homes')
    await tileIndexesOf(b.store).shared?.refresh('homes')
    expect(await tileIndexesOf(b.store).shared?.version('homes_mvt')).toBe(2)
    for (const t of [townTile(14, 1), z15]) {
      const got = await tile(b.app, 'homes', t)
      const towns = [...values(got.body, 'homes', 'town')]
      expect(towns.length > 0 && towns.every((t) => String(t).startsWith('u')), towns.join()).toBe(true)
      expect(got).toEqual(await tile(a.app, 'homes', t))
    }
  }, 60_000)

  it('the other order: the notice heard first, the tile data and the shared set still of the old version', async () => {
    // B holds spans' and poles' tile data and homes' set of version 2; version 3 is committed and
    // B hears of it before any of that is rebuilt.
    await importVersion(1, a.store)
    for (const id of ['homes', 'poles', 'spans']) await b.store.datasetReplaced(id)
    expect((await b.store.info('spans')).version).toBe(3)
    // Cut from the rows of version 3 (not from the version-2 tile data), or for homes' z15 from
    // the set serving (version 2) until version 3's completes: what A answers.
    for (const [layer, t] of [
      ['spans', townTile(13, 2)],
      ['poles', townTile(12, 1)],
      ['homes', townTile(15, 2)],
    ] as const) {
      const got = await tile(b.app, layer, t)
      expect(got.status, layer).toBe(200)
      expect(got, layer).toEqual(await tile(a.app, layer, t))
    }
  }, 30_000)

  it('a render of version N never takes aggregate cells of a version committed during it', async () => {
    // The render of poles' archive from its tile data of the version stored now; an import
    // commits (through B) right before the render's first read of aggregate cells.
    const ready = await tileIndexesOf(a.store).get('poles')
    if (!ready) throw new Error('no tile data')
    let commits = 0
    const racing = new Proxy(a.store, {
      get(target, key) {
        if (key === 'cells')
          return async (...args: Parameters<PgStore['cells']>) => {
            if (commits++ === 0) await b.store.replaceDataset('poles', features(poles, 250, 2))
            return target.cells(...args)
          }
        const v: unknown = Reflect.get(target, key, target)
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      },
    })
    const source = sources.find((s) => s.id === 'poles_mvt')!
    await expect(renderArchive(racing, source, ready, serverSettings().tiles)).rejects.toBeInstanceOf(
      RenderDataMoved,
    )
    expect(commits).toBe(1)
  }, 30_000)
})
