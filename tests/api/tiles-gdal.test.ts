import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, seededApp, TEST_TOKEN, type TestApp } from './testApp'

// Vector tiles by a URL GDAL's MVT driver opens: it reads a single tile only from a URL ending in
// `.pbf` or `.mvt` (and takes z/x/y from the path). The TileJSON's template carries `.pbf`; the
// plain `…/mvt/{z}/{x}/{y}` the web app uses keeps working with the same checks and caching.
const run = promisify(execFile)

let t: TestApp
let base = ''

beforeAll(async () => {
  t = await seededApp({ buildings: 1500 })
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
}, 120_000)

afterAll(async () => {
  await t.close()
})

function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  return [
    z,
    Math.floor(((lon + 180) / 360) * n),
    Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n),
  ]
}

/** A tile at zoom `z` holding the dataset's first stored feature (the centre of its bbox). */
async function tileWithFeatures(dataset: string, z: number): Promise<[number, number, number]> {
  const rec = (await t.store.records(dataset, [], 1, 0)).records[0]
  const b = rec?.bbox as number[]
  return tileOf(((b[0] as number) + (b[2] as number)) / 2, ((b[1] as number) + (b[3] as number)) / 2, z)
}

async function template(path: string): Promise<string> {
  const res = await fetch(`${base}/api/tiles/${path}/tilejson.json`, { headers: AUTH })
  expect(res.status).toBe(200)
  const doc = (await res.json()) as { tiles: string[] }
  return doc.tiles[0] as string
}

const fill = (tpl: string, [z, x, y]: [number, number, number]) =>
  tpl.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y))

describe('GDAL opens a tile by the TileJSON template URL', () => {
  it('ogrinfo MVT:<template with z/x/y filled> lists the layer and its features', async () => {
    const tpl = await template('buildings')
    expect(tpl).toBe(`${base}/api/tiles/buildings/mvt/{z}/{x}/{y}.pbf`)
    const xyz = await tileWithFeatures('buildings', 14)
    const url = fill(tpl, xyz)
    const { stdout } = await run('ogrinfo', ['-ro', '-al', '-so', `MVT:${url}`], {
      env: { ...process.env, GDAL_HTTP_HEADERS: `Authorization: Bearer ${TEST_TOKEN}`, CPL_DEBUG: 'OFF' },
      timeout: 60_000,
    })
    expect(stdout).toMatch(/^Layer name: buildings$/m)
    const count = Number(/Feature Count: (\d+)/.exec(stdout)?.[1])
    const direct = await t.app.inject({ url: new URL(url).pathname, headers: AUTH })
    expect(direct.statusCode).toBe(200)
    expect(count).toBe(new VectorTile(new Pbf(direct.rawPayload)).layers.buildings?.length)
    expect(count).toBeGreaterThan(0)
    // A field of the dataset, read by GDAL from the tile.
    expect(stdout).toMatch(/^area_ft2: (Real|Integer|Integer64)/m)
  })

  it('ogrinfo without the session header cannot open it', async () => {
    const url = fill(await template('buildings'), await tileWithFeatures('buildings', 14))
    await expect(
      run('ogrinfo', ['-ro', '-al', '-so', `MVT:${url}`], {
        env: { ...process.env, GDAL_HTTP_HEADERS: '', CPL_DEBUG: 'OFF' },
        timeout: 60_000,
      }),
    ).rejects.toThrow()
  })
})

describe('tiles at …/{z}/{x}/{y}.pbf and .mvt', () => {
  it('answer the same tile as the plain URL, with the same ETag and caching; 304 on a match', async () => {
    const [z, x, y] = await tileWithFeatures('buildings', 14)
    const plain = await t.app.inject({ url: `/api/tiles/buildings/mvt/${z}/${x}/${y}`, headers: AUTH })
    expect(plain.statusCode).toBe(200)
    for (const ext of ['pbf', 'mvt']) {
      const res = await t.app.inject({ url: `/api/tiles/buildings/mvt/${z}/${x}/${y}.${ext}`, headers: AUTH })
      expect(res.statusCode, ext).toBe(200)
      expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile')
      expect(res.headers.etag).toBe(plain.headers.etag)
      expect(res.headers['cache-control']).toBe(plain.headers['cache-control'])
      expect(res.rawPayload.equals(plain.rawPayload)).toBe(true)
      const again = await t.app.inject({
        url: `/api/tiles/buildings/mvt/${z}/${x}/${y}.${ext}`,
        headers: { ...AUTH, 'if-none-match': String(plain.headers.etag) },
      })
      expect(again.statusCode).toBe(304)
    }
    const gz = await t.app.inject({
      url: `/api/tiles/buildings/mvt/${z}/${x}/${y}.pbf`,
      headers: { ...AUTH, 'accept-encoding': 'gzip' },
    })
    expect(gz.headers['content-encoding']).toBe('gzip')
  })

  it('need a session: bearer or the SDK session cookie', async () => {
    const [z, x, y] = await tileWithFeatures('buildings', 14)
    const url = `/api/tiles/buildings/mvt/${z}/${x}/${y}.pbf`
    expect((await t.app.inject({ url })).statusCode).toBe(401)
    expect((await t.app.inject({ url, headers: { cookie: 'stytch_session=wrong' } })).statusCode).toBe(401)
    expect(
      (await t.app.inject({ url, headers: { cookie: `stytch_session=${TEST_TOKEN}` } })).statusCode,
    ).toBe(200)
  })

  it('check z/x/y and the zoom range as the plain URL does', async () => {
    for (const [xyz, parameter] of [
      ['5/32/1', 'x'],
      ['5/1/32', 'y'],
      ['5/1/abc', 'y'],
      ['z/1/1', 'z'],
    ] as const) {
      const res = await t.app.inject({ url: `/api/tiles/buildings/mvt/${xyz}.pbf`, headers: AUTH })
      expect(res.statusCode, xyz).toBe(400)
      expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
    }
    expect(
      (await t.app.inject({ url: '/api/tiles/buildings/mvt/4/1/1.pbf', headers: AUTH })).statusCode,
    ).toBe(404)
    expect(
      (await t.app.inject({ url: '/api/tiles/buildings/mvt/14/0/0.mvt', headers: AUTH })).statusCode,
    ).toBe(204)
    // Another extension is not a tile.
    expect(
      (await t.app.inject({ url: '/api/tiles/buildings/mvt/14/0/0.png', headers: AUTH })).statusCode,
    ).toBeGreaterThanOrEqual(400)
  })
})
