import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogFrom } from '../catalog'
import type { FeatureInput } from '../Store'
import { openPgStore, type PgStore } from './pgStore'
import { DATASET_CHANNEL } from './pgWriteDataset'
import { decodeParts, encodeGeometry, partsToGeometry } from '../geometryCodec'
import { encodeFeature } from '../writeDataset'
import { buildings, fixtureCatalog, sites, wires } from './storeFixture'
import { testPg, type TestPg } from './testing/pgTestDatabase'

// PostgreSQL only: several servers on one database, COPY failures, opening together.

let t: TestPg
let a: PgStore
let b: PgStore
beforeAll(async () => {
  t = await testPg()
  // Two servers starting together: tables and cells set up once, neither fails.
  ;[a, b] = await Promise.all([openPgStore(t.url, fixtureCatalog), openPgStore(t.url, fixtureCatalog)])
  await a.replaceDataset('wires', wires(40))
})
afterAll(async () => {
  await a?.close()
  await b?.close()
  await t?.drop()
})

describe('PgStore on one database with several servers', () => {
  it("sees another server's import: notified with {id, version}, then the new version and rows", async () => {
    expect((await b.info('wires')).version).toBe(1)
    const listener = await t.db.connect()
    try {
      const note = new Promise<string>((resolve) =>
        listener.on('notification', (m) => {
          if (m.channel === DATASET_CHANNEL) resolve(m.payload ?? '')
        }),
      )
      await listener.query(`LISTEN ${DATASET_CHANNEL}`)
      await a.replaceDataset('wires', wires(55, 2))
      expect(JSON.parse(await note)).toEqual({ id: 'wires', version: 2 })
    } finally {
      listener.release()
    }
    // The cluster calls datasetReplaced on the notification; the TTL bounds it otherwise.
    b.datasetReplaced('wires')
    expect(await b.info('wires')).toMatchObject({ version: 2, count: 55 })
    const page = await b.records('wires', [], 100, 0)
    expect(page.total).toBe(55)
    expect(page).toEqual(await a.records('wires', [], 100, 0))
  })

  it('caches info between requests (no promise while fresh)', async () => {
    await a.info('bldg')
    const again = a.info('bldg')
    expect(again instanceof Promise).toBe(false)
  })

  it('keeps the old data, version and no staging table when the COPY fails midway', async () => {
    const before = await a.info('wires')
    function* failing(): Generator<FeatureInput> {
      yield* wires(3000, 4)
      throw new Error('source went away')
    }
    await expect(a.replaceDataset('wires', failing())).rejects.toThrow('source went away')
    a.datasetReplaced('wires')
    expect(await a.info('wires')).toEqual(before)
    expect(await t.db.query(`SELECT to_regclass('ds_wires__staging') AS t`)).toEqual([{ t: null }])
    // And the next import goes through.
    expect(await a.replaceDataset('wires', wires(10, 8))).toBe(10)
    expect((await a.info('wires')).version).toBe(before.version + 1)
  })

  it('stores text with NUL characters dropped and COPY escapes round-tripped', async () => {
    const odd = ['a\\b', 'tab\tx', 'line\nbreak', 'cr\rx', 'nul\0x', '\\N', 'ünï']
    await a.replaceDataset(
      'wires',
      odd.map((owner, i) => ({
        geometry: {
          type: 'LineString',
          coordinates: [
            [-106, 35 + i / 100],
            [-105.9, 35 + i / 100],
          ],
        },
        properties: { kv: i, owner },
      })),
    )
    const got = await a.records('wires', [], 100, 0)
    expect(got.records.map((r) => r.owner)).toEqual(odd.map((s) => s.replace(/\0/g, '')))
  })

  it('adds columns for new fields and rebuilds cells when the aggregate zooms change', async () => {
    await a.replaceDataset('bldg', buildings(200))
    const layers = {
      datasets: fixtureCatalog.datasets.map((d) =>
        d.id === 'bldg' ? { ...d, fields: [...d.fields, { name: 'extra', type: 'string' }] } : d,
      ),
      sources: fixtureCatalog.sources.map((s) => ({
        ...s,
        type: 'mvt',
        generalize: s.generalize ? { ...s.generalize, aggregateMaxZoom: 6 } : undefined,
      })),
    }
    const changed = catalogFrom(layers, { tables: fixtureCatalog.tables })
    const c = await openPgStore(t.url, changed)
    try {
      const levels = await t.db.query<{ level: number }>(
        `SELECT DISTINCT level FROM agg_cells WHERE dataset = 'bldg' ORDER BY level`,
      )
      expect(levels.map((r) => r.level)).toEqual([10, 11, 12])
      const first = (await c.records('bldg', [], 1, 0)).records[0]
      expect(first).toMatchObject({ id: 1, extra: null })
    } finally {
      await c.close()
    }
  })
  it('writes the PostGIS geometry of every feature from its blob (single and multi types, holes, none)', async () => {
    await a.replaceDataset('bldg', buildings(60))
    await a.replaceDataset('sites', sites(30))
    await a.replaceDataset('wires', wires(30))
    for (const d of fixtureCatalog.datasets) {
      const rows = await t.db.query<{
        geom: Buffer
        json: string | null
        srid: number | null
        minx: number | null
      }>(
        `SELECT geom, ST_AsGeoJSON(geometry, 17) AS json, ST_SRID(geometry) AS srid, minx
         FROM ds_${d.id} WHERE ST_XMin(geometry) = minx AND ST_YMax(geometry) = maxy OR geometry IS NULL ORDER BY id`,
      )
      expect(rows).toHaveLength(d.id === 'sites' ? 31 : d.id === 'bldg' ? 60 : 30)
      for (const r of rows) {
        if (r.minx === null) {
          expect(r.json).toBeNull()
          continue
        }
        expect(r.srid).toBe(4326)
        expect(JSON.parse(r.json ?? 'null')).toEqual(partsToGeometry(decodeParts(r.geom), d.geometry))
      }
    }
  })
  it('keeps the old data when PostgreSQL itself refuses a row of the COPY', async () => {
    const d = fixtureCatalog.datasets.find((x) => x.id === 'bldg')
    if (!d) throw new Error('fixture')
    await a.replaceDataset('bldg', buildings(30))
    const before = await a.info('bldg')
    // A polygon ring of two positions: encoded as given, refused by PostGIS inside the COPY.
    const good = [...buildings(1000, 5)].map((f) => encodeFeature(d, f))
    const bad = encodeGeometry(
      [
        [
          [
            [-106, 35],
            [-105.9, 35],
          ],
        ],
      ],
      'polygon',
    )
    const rows = [...good, { ...bad, values: [null, null, null] }]
    await expect(
      a.importEncodedRows(d, rows, { aggZooms: a.aggregateZooms('bldg'), indexFields: [] }),
    ).rejects.toThrow(/point|ring/i)
    expect(await a.info('bldg')).toEqual(before)
    expect((await a.records('bldg', [], 100, 0)).total).toBe(30)
    expect(await t.db.query(`SELECT to_regclass('ds_bldg__staging') AS t`)).toEqual([{ t: null }])
    // The pool's connections are usable again.
    expect(await a.replaceDataset('bldg', buildings(10))).toBe(10)
  })
  it('lets reads through while an import waits to swap behind a long read', { timeout: 15_000 }, async () => {
    await a.replaceDataset('sites', sites(50))
    // Another server in the middle of a long read of the table (its tile rows, say).
    const reader = await t.db.connect()
    try {
      await reader.query('BEGIN')
      await reader.query('SELECT count(*) FROM ds_sites')
      let finished = false
      const importing = a.replaceDataset('sites', sites(60, 3)).then((n) => {
        finished = true
        return n
      })
      // Until the import is seen asking for the table's exclusive lock.
      for (let seen = false; !seen;) {
        await new Promise((r) => setTimeout(r, 10))
        const waiting = await t.db.query(
          `SELECT 1 FROM pg_locks WHERE relation = 'ds_sites'::regclass AND mode = 'AccessExclusiveLock' AND NOT granted`,
        )
        seen = waiting.length > 0
      }
      // A read from a third connection is not queued behind the waiting import (it would hang here).
      b.datasetReplaced('sites')
      expect((await b.records('sites', [], 5, 0)).total).toBe(51)
      expect(finished).toBe(false)
      await reader.query('COMMIT')
      expect(await importing).toBe(61)
    } finally {
      reader.release()
    }
  })
})
