// npm run bench:pg-import [-- --buildings 2000,100000 --rounds 3]
// Import speed of the PostgreSQL store (COPY into a staging table, indexes, swap, cells, column
// index, NOTIFY) beside the SQLite store, on the demo's buildings. The rows are encoded once up
// front, so both figures are the store's write path only (what `npm run import` feeds from its
// worker thread). PostgreSQL: DATABASE_URL's cluster when set, else a throw-away cluster started
// with scripts/postgres.sh under $TMPDIR/emberline-bench-pg; each round writes into a fresh
// database that is dropped afterwards. Prints rows/s per round and the median.
import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { generateDemo } from '../src/demo/generateDemo'
import { defaultCatalog, filterableFields, type DatasetDef } from '../src/server/store/catalog'
import { importEncodedRows } from '../src/server/store/openStoreFile'
import { openPgStore } from '../src/server/store/pg/pgStore'
import { openStore } from '../src/server/store/sqliteStore'
import { encodeFeature, type EncodedRow } from '../src/server/store/writeDataset'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback
}
const sizes = arg('buildings', '2000,100000').split(',').map(Number)
const rounds = Number(arg('rounds', '3'))

function clusterUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL
  const script = path.resolve(import.meta.dirname, 'postgres.sh')
  const dir = path.join(os.tmpdir(), 'emberline-bench-pg')
  const out = execFileSync('bash', [script, 'start', dir], { encoding: 'utf8' })
  const m = /DATABASE_URL=(\S+)\s*$/.exec(out)
  if (!m?.[1]) throw new Error(`scripts/postgres.sh printed no DATABASE_URL`)
  return m[1]
}

async function admin(url: string, sql: string): Promise<void> {
  const u = new URL(url)
  u.pathname = '/postgres'
  const c = new pg.Client({ connectionString: u.toString() })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

const catalog = defaultCatalog()
const d = catalog.datasets.find((x) => x.id === 'buildings') as DatasetDef
const options = {
  aggZooms: [] as number[],
  indexFields: [...filterableFields(catalog, 'buildings').values()],
}
const url = clusterUrl()
console.log(`cluster ${new URL(url).host}, ${rounds} rounds, load ${os.loadavg()[0]?.toFixed(1)}`)
for (const n of sizes) {
  const rows: EncodedRow[] = [...(generateDemo({ buildings: n }).datasets.buildings?.() ?? [])].map((f) =>
    encodeFeature(d, f),
  )
  const sqlite: number[] = []
  const postgres: number[] = []
  for (let r = 0; r < rounds; r++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-sqlite-'))
    const s = openStore(dir, catalog)
    options.aggZooms = s.aggregateZooms('buildings')
    let t0 = performance.now()
    importEncodedRows(s, d, rows, options)
    sqlite.push(n / ((performance.now() - t0) / 1000))
    s.close()
    fs.rmSync(dir, { recursive: true, force: true })

    const name = `bench_${crypto.randomBytes(4).toString('hex')}`
    await admin(url, `CREATE DATABASE ${name}`)
    const u = new URL(url)
    u.pathname = `/${name}`
    const p = await openPgStore(u.toString(), catalog, { max: 2 })
    try {
      t0 = performance.now()
      await p.importEncodedRows(d, rows, options)
      postgres.push(n / ((performance.now() - t0) / 1000))
    } finally {
      await p.close()
      await admin(url, `DROP DATABASE ${name} WITH (FORCE)`)
    }
  }
  const fmt = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en')).join(', ')
  console.log(
    `${n.toLocaleString('en')} buildings: SQLite median ${Math.round(median(sqlite)).toLocaleString('en')} rows/s (${fmt(sqlite)}); ` +
      `PostgreSQL COPY median ${Math.round(median(postgres)).toLocaleString('en')} rows/s (${fmt(postgres)})`,
  )
}
