import { execFile } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { identitySettings } from '../../src/server/identity'
import { createIdentityContext } from '../../src/server/identity/context'
import { createMember } from '../../src/server/identity/memberAdmin'
import { issueSession } from '../../src/server/identity/sessions'
import { ORPHANED } from '../../src/server/ingest/IngestJobRunner'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import { ingestJobsOf } from '../../src/server/store/ingestJobsOf'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { tempDir } from './testApp'

// The ingestion API (issue #32 item 2) through buildApp with the bundled identity provider, on
// SQLite and (project api-pg) PostgreSQL: replace and merge, formats, idempotency, refusals that
// change nothing, rejected lines, access (member permission, machine scopes), jobs read by a
// second server and jobs orphaned by a stopped server.
const s = identitySettings
const DATASET = 'critical_infrastructure'
const URL = `/api/ingest/datasets/${DATASET}`

let app: FastifyInstance
let second: FastifyInstance
let store: AppStore
let dataDir: string
let spool: string
const tokens = { admin: '', member: '', importer: '', write: '', read: '' }

const point = (lon: number, lat: number, name: string, type = 'Hospital') =>
  ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lon, lat] },
    properties: { name, type },
  }) as const
const ndjson = (...features: object[]): string => features.map((f) => JSON.stringify(f)).join('\n') + '\n'

function post(
  url: string,
  token: string | null,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': contentType,
      ...headers,
    },
    payload: body,
  })
}

type JobBody = {
  job: string
  status: string
  progress: { done: number }
  summary: { kept: number; rejected: { line: number | null; reason: string }[]; keys?: number } | null
  error: string | null
}

async function finished(job: string, on: FastifyInstance = app): Promise<JobBody> {
  for (let i = 0; i < 400; i++) {
    const res = await on.inject({
      url: `/api/ingest/jobs/${job}`,
      headers: { authorization: `Bearer ${tokens.importer}` },
    })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<JobBody>()
    if (body.status === 'succeeded' || body.status === 'failed') return body
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`job ${job} did not finish`)
}

async function ingest(
  body: string,
  contentType: string,
  mode = 'replace',
  token = tokens.importer,
): Promise<JobBody> {
  const res = await post(`${URL}?mode=${mode}`, token, body, contentType)
  expect(res.statusCode, res.body).toBe(202)
  return finished(res.json<{ job: string }>().job)
}

async function rows(): Promise<{ name: string; type: string }[]> {
  const page = await store.records(DATASET, [], 100, 0)
  return page.records
    .map((r) => ({ name: String(r.name), type: String(r.type) }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

async function machineToken(scopes: string[]): Promise<string> {
  const made = await app.inject({
    method: 'POST',
    url: '/api/admin/m2m-clients',
    headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: `ingest ${scopes.join(' ')}`, scopes }),
  })
  expect(made.statusCode, made.body).toBe(201)
  const { client, client_secret } = made.json<{ client: { client_id: string }; client_secret: string }>()
  const res = await app.inject({
    method: 'POST',
    url: `/v1/public/${s.projectId}/oauth2/token`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_id: client.client_id, client_secret, grant_type: 'client_credentials' }),
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ access_token: string }>().access_token
}

beforeAll(async () => {
  dataDir = tempDir('emberline-ingest-')
  spool = path.join(dataDir, 'spool')
  fs.mkdirSync(spool)
  store = await openDataDirStore(dataDir, defaultCatalog())
  const now = Date.now()
  const member = async (email: string, roles: string[]) =>
    createMember(store.members, s, { email, password: 'Ember-line-Ingest-Passw0rd', roles }, now)
  const ctx = await createIdentityContext({ db: store, dataDir, settings: s, env: {}, print: () => {} })
  const session = async (m: Awaited<ReturnType<typeof member>>) =>
    (await issueSession(ctx, m, [], 60)).sessionToken
  tokens.admin = await session(await member('admin@emberline.test', ['stytch_member', 'stytch_admin']))
  tokens.member = await session(await member('field@emberline.test', ['stytch_member']))
  tokens.importer = await session(await member('gis@emberline.test', ['stytch_member', 'data_importer']))
  app = await buildApp({
    dataDir,
    demo: true,
    store,
    ingest: { tempDir: spool, limits: { maxBodyBytes: 256 * 1024 } },
  })
  second = await buildApp({ dataDir, demo: true, store })
  tokens.write = await machineToken(['data:read', 'data:write'])
  tokens.read = await machineToken(['data:read'])
}, 60_000)

afterAll(async () => {
  await app.close()
  await second.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('replace and merge', () => {
  it('replaces a dataset with newline-delimited GeoJSON and reports the job on any server', async () => {
    const job = await ingest(
      ndjson(point(-106.6, 35.1, 'A'), point(-106.5, 35.2, 'B'), point(-106.4, 35.3, 'C')),
      'application/x-ndjson',
    )
    expect(job).toMatchObject({ status: 'succeeded', summary: { kept: 3, rejected: [] }, error: null })
    expect((await rows()).map((r) => r.name)).toEqual(['A', 'B', 'C'])
    // Jobs live in the store: a second server over it reads the same job.
    expect(await finished(job.job, second)).toMatchObject({ status: 'succeeded', summary: { kept: 3 } })
    expect(fs.readdirSync(spool)).toEqual([])
  })

  it('merges CSV by the dataset key (name): matching rows replaced, new rows added, others kept', async () => {
    await ingest(ndjson(point(-106.6, 35.1, 'A'), point(-106.5, 35.2, 'B')), 'application/geo+json-seq')
    const csv = 'name,type,lon,lat\nB,Substation,-106.0,35.0\n"D, North",Fire Station,-106.1,35.6\n'
    const job = await ingest(csv, 'text/csv; charset=utf-8', 'merge', tokens.write)
    expect(job).toMatchObject({ status: 'succeeded', summary: { kept: 3, keys: 2 } })
    expect(await rows()).toEqual([
      { name: 'A', type: 'Hospital' },
      { name: 'B', type: 'Substation' },
      { name: 'D, North', type: 'Fire Station' },
    ])
  })

  it('replaces and merges from a GeoPackage written by ogr2ogr (in EPSG:3857, reprojected)', async () => {
    const gpkg = async (name: string, ...features: object[]): Promise<Buffer> => {
      const src = path.join(dataDir, `${name}.geojson`)
      const out = path.join(dataDir, `${name}.gpkg`)
      fs.writeFileSync(src, JSON.stringify({ type: 'FeatureCollection', features }))
      await promisify(execFile)('ogr2ogr', [
        '-f',
        'GPKG',
        '-s_srs',
        'EPSG:4326',
        '-t_srs',
        'EPSG:3857',
        out,
        src,
      ])
      return fs.readFileSync(out)
    }
    const send = async (body: Buffer, mode: string): Promise<JobBody> => {
      const res = await app.inject({
        method: 'POST',
        url: `${URL}?mode=${mode}`,
        headers: {
          authorization: `Bearer ${tokens.importer}`,
          'content-type': 'application/geopackage+sqlite3',
        },
        payload: body,
      })
      expect(res.statusCode, res.body).toBe(202)
      return finished(res.json<{ job: string }>().job)
    }
    const first = await send(
      await gpkg('first', point(-106.6, 35.1, 'A'), point(-106.5, 35.2, 'B')),
      'replace',
    )
    expect(first).toMatchObject({ status: 'succeeded', summary: { kept: 2, rejected: [] } })
    expect((await rows()).map((r) => r.name)).toEqual(['A', 'B'])
    // In metres (EPSG:3857) the points would be refused as out of range: they were reprojected.
    const merged = await send(
      await gpkg('merge', point(-106.0, 35.0, 'B', 'Substation'), point(-106.1, 35.6, 'C')),
      'merge',
    )
    expect(merged).toMatchObject({ status: 'succeeded', summary: { kept: 3, keys: 2 } })
    expect(await rows()).toEqual([
      { name: 'A', type: 'Hospital' },
      { name: 'B', type: 'Substation' },
      { name: 'C', type: 'Hospital' },
    ])
  })

  it('refuses a merge into a dataset without a key', async () => {
    const res = await post(
      '/api/ingest/datasets/buildings?mode=merge',
      tokens.importer,
      '{}',
      'application/geo+json',
    )
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: 'bad_request', parameter: 'mode' })
  })
})

describe('idempotency', () => {
  it('answers the first job for a repeated key and refuses the key with another body (422)', async () => {
    const body = JSON.stringify({
      type: 'FeatureCollection',
      features: [point(-106, 35, 'K1'), point(-106.1, 35, 'K2')],
    })
    const key = { 'idempotency-key': 'nightly-2026-11-27' }
    const first = await post(URL, tokens.importer, body, 'application/geo+json', key)
    expect(first.statusCode, first.body).toBe(202)
    const job = first.json<{ job: string }>().job
    expect((await finished(job)).status).toBe('succeeded')
    const again = await post(URL, tokens.importer, body, 'application/geo+json', key)
    expect(again.statusCode).toBe(202)
    expect(again.json()).toMatchObject({ job, status: 'succeeded' })
    expect(again.headers['idempotent-replayed']).toBe('true')
    const other = await post(URL, tokens.importer, body.replace('K2', 'K3'), 'application/geo+json', key)
    expect(other.statusCode).toBe(422)
    expect(other.json()).toMatchObject({ parameter: 'Idempotency-Key' })
    expect((await rows()).map((r) => r.name)).toEqual(['K1', 'K2'])
  })
})

describe('refusals change nothing', () => {
  it('refuses a wrong content type with 415 naming Content-Type', async () => {
    const before = await rows()
    const res = await post(URL, tokens.importer, 'name,type\n', 'application/vnd.ms-excel')
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({ error: 'unsupported_media_type', parameter: 'Content-Type' })
    expect(await rows()).toEqual(before)
  })

  it('reports the rejected line of a bad file and keeps the previous data', async () => {
    const before = await rows()
    const body =
      ndjson(point(-106, 35, 'X1')) + '{"type": "Feature", "geometry": \n' + ndjson(point(-106, 35, 'X3'))
    const job = await ingest(body, 'application/x-ndjson')
    expect(job.status).toBe('failed')
    expect(job.summary?.kept).toBe(0)
    expect(job.summary?.rejected).toEqual([{ line: 2, reason: expect.stringContaining('invalid JSON') }])
    expect(job.error).toContain(`${DATASET} unchanged`)
    const badPoint = await ingest(ndjson(point(-106, 35, 'Y1'), point(500, 35, 'Y2')), 'application/x-ndjson')
    expect(badPoint.summary?.rejected[0]?.line).toBe(2)
    expect(await rows()).toEqual(before)
  })

  it('makes no job of a body cut off before its Content-Length', async () => {
    const before = await rows()
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = new globalThis.URL(address)
    const part = ndjson(point(-106, 35, 'T1'), point(-106, 35, 'T2'))
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST ${URL} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tokens.importer}\r\n` +
            `Content-Type: application/x-ndjson\r\nContent-Length: ${part.length + 5000}\r\n\r\n${part}`,
        )
        setTimeout(() => socket.destroy(), 100)
      })
      let text = ''
      socket.on('data', (d) => (text += String(d)))
      socket.on('close', () => resolve(text))
    })
    expect(answer).not.toMatch(/^HTTP\/1.1 202/)
    // The refusal is done once the spooled part is gone.
    for (let i = 0; i < 100 && fs.readdirSync(spool).length > 0; i++)
      await new Promise((r) => setTimeout(r, 20))
    expect(fs.readdirSync(spool)).toEqual([])
    expect(await rows()).toEqual(before)
  })

  it('refuses a body over the configured size with 413', async () => {
    const big = ndjson(...Array.from({ length: 6000 }, (_, i) => point(-106, 35, `N${i}`)))
    expect(big.length).toBeGreaterThan(256 * 1024)
    const res = await post(URL, tokens.importer, big, 'application/x-ndjson')
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ error: 'payload_too_large' })
  })
})

describe('access', () => {
  it('needs a credential, the data.import permission or the data:write scope', async () => {
    const body = ndjson(point(-106, 35, 'Z'))
    expect((await post(URL, null, body, 'application/x-ndjson')).statusCode).toBe(401)
    const member = await post(URL, tokens.member, body, 'application/x-ndjson')
    expect(member.statusCode).toBe(403)
    expect(member.json()).toMatchObject({ error: 'forbidden' })
    const reader = await post(URL, tokens.read, body, 'application/x-ndjson')
    expect(reader.statusCode).toBe(403)
    expect(reader.json().message).toContain('data:write')
    const admin = await post(URL, tokens.admin, body, 'application/x-ndjson')
    expect(admin.statusCode).toBe(202)
    await finished(admin.json<{ job: string }>().job)
    const audit = (await store.members.auditLog(50)).filter((e) => e.event.startsWith('ingest.'))
    expect(audit.map((e) => e.event)).toContain('ingest.accepted')
    expect(audit.map((e) => e.event)).toContain('ingest.succeeded')
    expect(audit.find((e) => e.event === 'ingest.accepted')?.subject).toBe(`dataset:${DATASET}`)
  })
})

describe('jobs of a stopped server', () => {
  it('answers a running job whose server stopped as failed', async () => {
    const old = Date.now() - 120_000
    const id = 'ingest-00000000-0000-4000-8000-000000000001'
    await ingestJobsOf(store).create({
      id,
      kind: 'dataset',
      target: DATASET,
      mode: 'replace',
      format: 'ndjson',
      status: 'running',
      bytes: 10,
      bodySha256: 'x',
      idempotencyKey: null,
      requestedBy: 'someone',
      progress: 5,
      summary: null,
      error: null,
      createdAt: old,
      startedAt: old,
      finishedAt: null,
      heartbeatAt: old,
    })
    const job = await finished(id, second)
    expect(job).toMatchObject({ status: 'failed', error: ORPHANED })
  })
})

describe('grids', () => {
  /** A 20 × 10 lon/lat GeoTIFF (one band, value = column + 100 · row) written by GDAL. */
  async function geoTiff(): Promise<Buffer> {
    const nx = 20
    const ny = 10
    const values = Float32Array.from({ length: nx * ny }, (_, k) => (k % nx) + 100 * Math.floor(k / nx))
    fs.writeFileSync(path.join(dataDir, 'field.bin'), new Uint8Array(values.buffer))
    const vrt = path.join(dataDir, 'field.vrt')
    fs.writeFileSync(
      vrt,
      `<VRTDataset rasterXSize="${nx}" rasterYSize="${ny}"><SRS>EPSG:4326</SRS>
        <GeoTransform>-107, 0.1, 0, 36, 0, -0.1</GeoTransform>
        <VRTRasterBand dataType="Float32" band="1" subClass="VRTRawRasterBand">
        <SourceFilename relativetoVRT="1">field.bin</SourceFilename><ImageOffset>0</ImageOffset>
        <PixelOffset>4</PixelOffset><LineOffset>${nx * 4}</LineOffset><ByteOrder>LSB</ByteOrder></VRTRasterBand></VRTDataset>`,
    )
    const out = path.join(dataDir, 'field.tif')
    await promisify(execFile)('gdal_translate', ['-q', '-of', 'GTiff', vrt, out])
    return fs.readFileSync(out)
  }

  it('replaces a grid with a GeoTIFF through importGridFile; a file that is no raster changes nothing', async () => {
    const tif = await geoTiff()
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/grids/elevation',
      headers: { authorization: `Bearer ${tokens.write}`, 'content-type': 'image/tiff' },
      payload: tif,
    })
    expect(res.statusCode, res.body).toBe(202)
    const job = await finished(res.json<{ job: string }>().job)
    expect(job).toMatchObject({
      status: 'succeeded',
      summary: { grid: 'elevation', format: 'GeoTIFF', nx: 20, ny: 10 },
    })
    const version = await store.grids.version('elevation')
    expect(version).toBeDefined()
    const bad = await app.inject({
      method: 'POST',
      url: '/api/ingest/grids/elevation',
      headers: { authorization: `Bearer ${tokens.write}`, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('not a raster at all'),
    })
    expect(bad.statusCode).toBe(202)
    const failed = await finished(bad.json<{ job: string }>().job)
    expect(failed.status).toBe('failed')
    expect(failed.error).toContain('elevation unchanged')
    expect(await store.grids.version('elevation')).toBe(version)
    expect((await post('/api/ingest/grids/no_such_grid', tokens.write, 'x', 'image/tiff')).statusCode).toBe(
      404,
    )
  })
})
