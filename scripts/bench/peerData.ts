// The peer comparison's data: the peer's gen-data.mjs output (seeded; it also draws the tile
// list), loaded into PostGIS (load-pg.sh + the equal-content peer's columns) and imported into our
// store with `npm run import`. `preparePeer` does whatever the seed on record says is missing.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { BenchTile } from './tileList'

export const PEER_DIR = path.resolve(import.meta.dirname, '../../../shared/bench/peer')
const LAYERS = ['points', 'lines', 'buildings'] as const

export interface PeerData {
  work: string
  seed: number
  buildings: number
  tiles: BenchTile[]
}

function manifest(work: string): { seed: number; N_BUILDINGS: number } | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(work, 'data', 'manifest.json'), 'utf8')) as {
      seed: number
      N_BUILDINGS: number
    }
  } catch {
    return null
  }
}

function psql(work: string, sql: string): string {
  return execFileSync('psql', ['-h', work, '-p', '55432', '-U', 'postgres', '-d', 'nm', '-tAc', sql], {
    encoding: 'utf8',
  }).trim()
}

const run = (cmd: string, args: string[], env: Record<string, string>, cwd = PEER_DIR): void => {
  console.log(`$ ${cmd} ${args.join(' ')}`)
  execFileSync(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: 'inherit' })
}

/**
 * Makes the peer's data for `seed` (1,000,000 buildings unless `buildings`), PostGIS and our store
 * (`dataDir`, `configDir`) hold it: regenerates, reloads and re-imports only what is stale.
 */
export function preparePeer(
  work: string,
  seed: number,
  buildings: number,
  dataDir: string,
  configDir: string,
): void {
  const env = { PEER_WORK: work }
  if (!fs.existsSync(path.join(work, 'node', 'node_modules', 'pg'))) {
    fs.mkdirSync(path.join(work, 'node'), { recursive: true })
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', 'pg@8.23.1', 'vt-pbf@3.1.3'],
      env,
      path.join(work, 'node'),
    )
  }
  run('./setup-pg.sh', [], env)
  const m = manifest(work)
  if (!m || m.seed !== seed || m.N_BUILDINGS !== buildings)
    run('node', ['gen-data.mjs', '--seed', String(seed), '--buildings', String(buildings)], env)
  const stamp = `${seed}/${buildings}`
  let loaded = ''
  try {
    loaded = psql(work, 'SELECT stamp FROM emberline_bench_seed')
  } catch {
    loaded = ''
  }
  if (loaded !== stamp) {
    run('./load-pg.sh', [], env)
    psql(work, 'ALTER TABLE buildings ADD COLUMN area real, ADD COLUMN c geometry(Point,3857)')
    psql(work, 'UPDATE buildings SET area = ST_Area(geom), c = ST_Centroid(geom)')
    psql(work, 'CREATE INDEX ON buildings USING gist (c)')
    psql(work, 'VACUUM ANALYZE buildings')
    psql(
      work,
      `DROP TABLE IF EXISTS emberline_bench_seed; CREATE TABLE emberline_bench_seed AS SELECT '${stamp}'::text AS stamp`,
    )
  }
  const ours = path.join(dataDir, 'peer-seed.txt')
  if (!fs.existsSync(ours) || fs.readFileSync(ours, 'utf8') !== stamp) {
    fs.rmSync(dataDir, { recursive: true, force: true })
    for (const l of LAYERS)
      run(
        'npx',
        [
          'tsx',
          'scripts/import.ts',
          l,
          path.join(work, 'data', `${l}.ndjson`),
          '--config',
          configDir,
          '--data-dir',
          dataDir,
        ],
        {},
        path.resolve(import.meta.dirname, '../..'),
      )
    fs.writeFileSync(ours, stamp)
  }
}

/** The prepared data: its seed (printed with the figures) and the tile list gen-data drew with it. */
export function peerData(work: string, dataDir: string): PeerData {
  const m = manifest(work)
  if (!m) throw new Error(`no peer data in ${work}/data: run with --prepare`)
  const stamp = `${m.seed}/${m.N_BUILDINGS}`
  const ours = path.join(dataDir, 'peer-seed.txt')
  if (!fs.existsSync(ours) || fs.readFileSync(ours, 'utf8') !== stamp)
    throw new Error(`${dataDir} does not hold the peer data ${stamp}: run with --prepare`)
  if (psql(work, 'SELECT stamp FROM emberline_bench_seed') !== stamp)
    throw new Error(`PostGIS does not hold the peer data ${stamp}: run with --prepare`)
  const tiles = JSON.parse(fs.readFileSync(path.join(work, 'data', 'tiles.json'), 'utf8')) as BenchTile[]
  return { work, seed: m.seed, buildings: m.N_BUILDINGS, tiles }
}
