// The PostGIS peers behind HTTP, for bench:server's side-by-side (same load client, same tile list):
//   GET /plain/<layer>/<z>/<x>/<y>     Martin's table-source SQL (../shared/bench/peer/bench-pg.mjs:
//                                     ST_AsMVT(ST_AsMVTGeom(geom, ST_TileEnvelope, 4096, 64, true)), every feature)
//   GET /policy/buildings/<z>/<x>/<y>  the equal-content peer (../shared/bench/peer/bench-pg-policy.mjs:
//                                     64×64 count cells at z ≤ 11, the 2,000 / 4,000 largest at z12 / z13
//                                     simplified by 3 tile units, every feature from z14)
// Prepared statements over node-pg (installed in $PEER_WORK/node by the peer's README), a pool of
// POOL (4) connections on the unix socket; answers uncompressed MVT (204 when empty), like
// peer-server.mjs — no gzip cost on the peer's side. Prints `listening <port>`.
import http from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'

interface PgPool {
  query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>
  end(): Promise<void>
}
type PgModule = { Pool: new (o: Record<string, unknown>) => PgPool }

const PEER_WORK = process.env.PEER_WORK ?? '/tmp/perf-peer'
const pg = createRequire(path.join(PEER_WORK, 'node', 'package.json'))('pg') as PgModule
const pool = new pg.Pool({
  host: PEER_WORK,
  port: Number(process.env.PGPORT ?? 55432),
  user: 'postgres',
  database: 'nm',
  max: Number(process.env.POOL ?? 4),
  // Keep the backends for the whole run (their CPU time is part of the peer's figure).
  idleTimeoutMillis: 0,
})

const COLS: Record<string, string> = {
  buildings: 'occupancy, town, year_built, stories, value_usd, risk_score, wui_class',
  lines: 'kind, name, voltage_kv, owner, phase, conductor, install_year, psps_zone',
  points: 'kind, confidence, frp_mw, acq_time::text AS acq_time, name',
}
const plain = (layer: string): string => `SELECT ST_AsMVT(tile, '${layer}', 4096, 'geom', 'id') FROM (
  SELECT ST_AsMVTGeom(geom, ST_TileEnvelope($1::integer, $2::integer, $3::integer), 4096, 64, true) AS geom, id, ${COLS[layer]}
  FROM ${layer} WHERE geom && ST_TileEnvelope($1::integer, $2::integer, $3::integer, margin => ${64 / 4096})) AS tile`

// bench-pg-policy.mjs, verbatim apart from the explicit casts.
const W = 40075016.685578488
const props = 'id, occupancy, town, year_built, stories, value_usd, risk_score, wui_class'
const full = `SELECT ST_AsMVT(t, 'buildings', 4096, 'geom', 'id') FROM (SELECT ${props}, ST_AsMVTGeom(geom, ST_TileEnvelope($1,$2,$3), 4096, 64, true) AS geom FROM buildings WHERE geom && ST_TileEnvelope($1,$2,$3, margin => (64.0/4096))) t`
const thin = `SELECT ST_AsMVT(t, 'buildings', 4096, 'geom', 'id') FROM (SELECT ${props}, ST_AsMVTGeom(ST_Simplify(geom, $5), ST_TileEnvelope($1,$2,$3), 4096, 64, true) AS geom FROM (SELECT * FROM buildings WHERE geom && ST_TileEnvelope($1,$2,$3, margin => (64.0/4096)) ORDER BY area DESC LIMIT $4) c) t WHERE geom IS NOT NULL`
const agg = `WITH e AS (SELECT ST_TileEnvelope($1,$2,$3) AS env), g AS (SELECT env, ST_XMin(env) x0, ST_YMin(env) y0, (ST_XMax(env)-ST_XMin(env))/64 w FROM e),
cells AS (SELECT floor((ST_X(b.c)-g.x0)/g.w)::int cx, floor((ST_Y(b.c)-g.y0)/g.w)::int cy, count(*) n FROM buildings b, g WHERE b.c && g.env GROUP BY 1,2)
SELECT ST_AsMVT(t, 'buildings', 4096, 'geom') FROM (SELECT n AS count, true AS aggregated, ST_AsMVTGeom(ST_MakeEnvelope(g.x0+cx*g.w, g.y0+cy*g.w, g.x0+(cx+1)*g.w, g.y0+(cy+1)*g.w, 3857), g.env, 4096, 0, true) AS geom FROM cells, g) t`

function policy(z: number, x: number, y: number): { name: string; text: string; values: unknown[] } {
  if (z <= 11) return { name: 'agg', text: agg, values: [z, x, y] }
  if (z <= 13)
    return { name: 'thin', text: thin, values: [z, x, y, z === 13 ? 4000 : 2000, (3 * W) / 2 ** z / 4096] }
  return { name: 'full', text: full, values: [z, x, y] }
}

const server = http.createServer((req, res) => {
  const m = /^\/(plain|policy)\/(\w+)\/(\d+)\/(\d+)\/(\d+)$/.exec(req.url ?? '')
  const layer = m?.[2] ?? ''
  if (!m || !COLS[layer] || (m[1] === 'policy' && layer !== 'buildings')) {
    res.writeHead(404).end()
    return
  }
  const [z, x, y] = [Number(m[3]), Number(m[4]), Number(m[5])]
  const q =
    m[1] === 'plain' ? { name: `plain_${layer}`, text: plain(layer), values: [z, x, y] } : policy(z, x, y)
  pool.query(q).then(
    (r) => {
      const buf = (r.rows[0]?.st_asmvt as Buffer | undefined) ?? Buffer.alloc(0)
      res.writeHead(buf.length ? 200 : 204, {
        'content-type': 'application/vnd.mapbox-vector-tile',
        'content-length': buf.length,
      })
      res.end(buf)
    },
    (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e)),
  )
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  const a = server.address()
  console.log(`listening ${typeof a === 'object' && a ? a.port : 0}`)
})
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))))
