// The PostgreSQL database of `bench:server -- --store postgres`: on the cluster of `url`, or of a
// throw-away cluster (scripts/postgres.sh) when none is given; loaded once per data stamp.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

export interface BenchDatabase {
  url: string
  /** What was loaded or reused, for the report. */
  note: string
  /** The cluster's postmaster (its CPU, with the backends', counts as the server's). */
  postmaster(): number | undefined
}

const root = path.resolve(import.meta.dirname, '../..')

function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

export async function benchDatabase(opts: {
  url: string
  name: string
  stamp: string
  load: (url: string) => Promise<void>
}): Promise<BenchDatabase> {
  let cluster = opts.url
  if (!cluster) {
    const dir = path.join(os.tmpdir(), 'emberline-bench-pg')
    const out = execFileSync('bash', [path.join(root, 'scripts/postgres.sh'), 'start', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    cluster = /DATABASE_URL=(\S+)\s*$/.exec(out)?.[1] ?? ''
    if (!cluster) throw new Error('scripts/postgres.sh printed no DATABASE_URL')
  }
  const admin = withDatabase(cluster, 'postgres')
  const url = withDatabase(cluster, opts.name)
  const dataDirectory = await withClient(admin, async (c) => {
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.name])
    if (exists.rowCount === 0) await c.query(`CREATE DATABASE ${opts.name}`)
    return (await c.query<{ data_directory: string }>('SHOW data_directory')).rows[0]?.data_directory ?? ''
  })
  const have = await withClient(url, async (c) => {
    await c.query('CREATE TABLE IF NOT EXISTS emberline_bench_stamp (stamp text NOT NULL)')
    return (await c.query<{ stamp: string }>('SELECT stamp FROM emberline_bench_stamp')).rows[0]?.stamp
  })
  let note = `database ${opts.name} (${opts.stamp}) reused`
  if (have !== opts.stamp) {
    const t = performance.now()
    await opts.load(url)
    const s = ((performance.now() - t) / 1000).toFixed(1)
    await withClient(url, async (c) => {
      await c.query('VACUUM ANALYZE')
      await c.query('DELETE FROM emberline_bench_stamp')
      await c.query('INSERT INTO emberline_bench_stamp VALUES ($1)', [opts.stamp])
    })
    note = `database ${opts.name} (${opts.stamp}) loaded through the store's COPY in ${s} s`
  }
  return {
    url,
    note,
    postmaster() {
      try {
        return Number(fs.readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0])
      } catch {
        return undefined
      }
    },
  }
}
