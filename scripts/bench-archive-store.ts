// npm run bench:archive-store -- [--tiles N] [--reads N] [--database-url URL]
// The two candidates of docs/adr/0003 for the shared tile archive of PostgreSQL mode, on the same
// tiles (random bytes, sizes like 1,000,000 buildings' archive: ~770 B on average):
//  - PostgreSQL: tile_archive_tiles (bytea, primary key source/version/z/x/y), written in batches
//    of 1,000 (unnest), read one tile per query by a prepared statement (PgTileArchives);
//  - a file every server mounts: the archive file format of SQLite mode (tileArchiveFile.ts),
//    each server holding its index (key, offset) and reading a tile's bytes by a positional read.
// Prints write time, cold random reads (tiles/s, p50/p95) at 2 and 8 concurrent readers, and
// the memory a server holds per candidate. DATABASE_URL: a PostgreSQL server (a database
// eb_bench_archive is created and dropped on it; the admin session uses the `postgres` database).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { migratePg, pgDatabase } from '../src/server/store/pg/pgDatabase'
import { PgTileArchives } from '../src/server/store/pg/pgTileArchives'
import { tileKey, writeTileArchive, type ArchivedTile } from '../src/server/tiles/tileArchiveFile'

const args = process.argv.slice(2)
const arg = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? (args[i + 1] ?? dflt) : dflt
}
const N = Number(arg('tiles', '100000'))
const READS = Number(arg('reads', '20000'))
const url = arg('database-url', process.env.DATABASE_URL ?? '')
if (!url) {
  console.error('set DATABASE_URL or --database-url')
  process.exit(2)
}

// Tiles: a z14 block, sizes log-normal around ~770 B (1M buildings: 117,000 tiles, ~90 MB).
const side = Math.ceil(Math.sqrt(N))
const tiles: ArchivedTile[] = []
for (let i = 0; i < N; i++) {
  const size = Math.max(20, Math.round(Math.exp(6.3 + 0.9 * gauss())))
  tiles.push({
    z: 14,
    x: 3000 + (i % side),
    y: 6000 + Math.floor(i / side),
    gz: crypto.randomBytes(size),
    features: 1,
    mode: 'full',
  })
}
const total = tiles.reduce((s, t) => s + t.gz.length, 0)
function gauss(): number {
  return Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random())
}
const order = Array.from({ length: READS }, () => tiles[Math.floor(Math.random() * N)] as ArchivedTile)

async function readAll(
  conc: number,
  read: (t: ArchivedTile) => Promise<Buffer | null>,
): Promise<{ perS: number; p50: number; p95: number }> {
  const lat: number[] = []
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: conc }, async () => {
      for (let i = next++; i < order.length; i = next++) {
        const t = order[i] as ArchivedTile
        const s = performance.now()
        const got = await read(t)
        lat.push(performance.now() - s)
        if (!got || got.length !== t.gz.length) throw new Error('wrong tile')
      }
    }),
  )
  const ms = performance.now() - t0
  lat.sort((a, b) => a - b)
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] as number
  return { perS: Math.round((order.length / ms) * 1000), p50: q(0.5), p95: q(0.95) }
}

const rows: string[] = []
const load = os.loadavg().map((l) => l.toFixed(1))
rows.push(
  `${N} tiles, ${(total / 1024 / 1024).toFixed(1)} MiB; ${READS} random reads; load ${load.join(' ')}`,
)

// PostgreSQL.
// The admin connection goes to the maintenance database: a session on the URL's own database
// would block every CREATE DATABASE … TEMPLATE of it meanwhile (the test cluster's template).
const adminUrl = new URL(url)
adminUrl.pathname = '/postgres'
const admin = new pg.Client({ connectionString: adminUrl.toString() })
await admin.connect()
await admin.query('DROP DATABASE IF EXISTS eb_bench_archive WITH (FORCE)')
await admin.query('CREATE DATABASE eb_bench_archive')
const u = new URL(url)
u.pathname = '/eb_bench_archive'
const db = pgDatabase({ url: u.toString(), max: 10, applicationName: 'bench-archive' })
try {
  await db.run('CREATE EXTENSION IF NOT EXISTS postgis')
  await migratePg(db)
  const store = new PgTileArchives(db)
  let t0 = performance.now()
  await store.begin({
    source: 's',
    dataset: 'd',
    version: 1,
    stamp: '{}',
    minZoom: 0,
    maxZoom: 14,
    renderedBy: 'bench',
  })
  for (let i = 0; i < N; i += 1000)
    await store.write(
      's',
      1,
      tiles.slice(i, i + 1000).map((t) => ({ ...t, mode: 0 })),
    )
  await store.complete('s', 1, 0)
  const writeMs = performance.now() - t0
  const size = await db.one<{ b: string }>(`SELECT pg_total_relation_size('tile_archive_tiles')::bigint AS b`)
  rows.push(
    `postgres  write ${(writeMs / 1000).toFixed(1)} s (${Math.round(N / (writeMs / 1000))} tiles/s), table+index ${(Number(size?.b) / 1024 / 1024).toFixed(0)} MiB on the database; server holds nothing per tile`,
  )
  for (const conc of [2, 8]) {
    const r = await readAll(conc, async (t) => (await store.tile('s', 1, t.z, t.x, t.y))?.gz ?? null)
    rows.push(
      `postgres  ${conc} readers: ${r.perS} tiles/s, p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`,
    )
  }

  // A file every server mounts.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-bench-archive-'))
  const file = path.join(dir, 's.tiles')
  t0 = performance.now()
  writeTileArchive(
    file,
    's',
    { version: 1, count: N, bbox: null, content: '' },
    { minZoom: 0, maxZoom: 14 },
    tiles,
  )
  const fileWriteMs = performance.now() - t0
  // Each server reads the index (key → offset, length) into memory, then reads bytes per tile.
  const buf = fs.readFileSync(file)
  const headLen = buf.readUInt32LE(8)
  const base = 16 + headLen
  const keys = new Float64Array(
    buf.buffer.slice(buf.byteOffset + base, buf.byteOffset + base + 8 * N) as ArrayBuffer,
  )
  const offsets = new Float64Array(
    buf.buffer.slice(buf.byteOffset + base + 8 * N, buf.byteOffset + base + 16 * N + 8) as ArrayBuffer,
  )
  const dataAt = base + 8 * N + 8 * (N + 1) + 4 * N + N
  const index = new Map<number, number>()
  for (let i = 0; i < N; i++) index.set(keys[i] as number, i)
  // Held per server: the key and offset arrays (16 B per tile) and the lookup Map (~40 B per entry).
  const indexBytes = N * (16 + 40)
  const fh = await fs.promises.open(file, 'r')
  rows.push(
    `file      write ${(fileWriteMs / 1000).toFixed(1)} s (one writer, then copied/synced to the mount); each server holds an index of ~${Math.round(indexBytes / N)} B per tile (~${(indexBytes / 1024 / 1024).toFixed(1)} MiB here)`,
  )
  for (const conc of [2, 8]) {
    const r = await readAll(conc, async (t) => {
      const i = index.get(tileKey(t.z, t.x, t.y))
      if (i === undefined) return null
      const from = offsets[i] as number
      const len = (offsets[i + 1] as number) - from
      const out = Buffer.alloc(len)
      await fh.read(out, 0, len, dataAt + from)
      return out
    })
    rows.push(
      `file      ${conc} readers: ${r.perS} tiles/s, p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms (local page cache; a network mount adds its round trip)`,
    )
  }
  await fh.close()
  fs.rmSync(dir, { recursive: true, force: true })
} finally {
  await db.close()
  await admin.query('DROP DATABASE IF EXISTS eb_bench_archive WITH (FORCE)')
  await admin.end()
}
for (const r of rows) console.log(r)
