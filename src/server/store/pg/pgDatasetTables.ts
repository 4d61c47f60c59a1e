import type { DatasetDef, FieldDef } from '../catalog'
import { fieldColumn, stagingTable, tableNames } from '../datasetTables'
import { ADVISORY_LOCK_SPACE, type PgDatabase } from './pgDatabase'
import { SRID } from './ewkb'

/** Second advisory-lock key of the table setup at open (two servers starting together). */
const TABLES_LOCK = 2

function sqlType(f: FieldDef): string {
  return f.type === 'number' ? 'double precision' : 'text'
}

/** The fixed columns, in COPY order, then one `f_<field>` per field. */
export const FIXED_COLUMNS = ['id', 'minx', 'miny', 'maxx', 'maxy', 'size', 'geom', 'geometry'] as const

/**
 * A dataset's feature table: the same columns as SQLite's ds_<dataset> (id, bbox, size, the
 * encoded geometry blob the tile engine reads, one typed column per field) plus the PostGIS
 * `geometry` (NULL for a record kept without geometry). `keys` adds the primary key and the GiST
 * index (a staging table gets them after its COPY).
 */
function createSql(d: DatasetDef, table: string, keys: boolean): string[] {
  const cols = d.fields.map((f) => `, ${fieldColumn(f.name)} ${sqlType(f)}`).join('')
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (id integer NOT NULL${keys ? ' PRIMARY KEY' : ''},
      minx double precision, miny double precision, maxx double precision, maxy double precision,
      size double precision, geom bytea NOT NULL, geometry geometry(Geometry, ${SRID})${cols})`,
    ...(keys
      ? [
          `CREATE INDEX IF NOT EXISTS ${table}_geometry ON ${table} USING gist (geometry)`,
          rankIndexSql(table),
        ]
      : []),
  ]
}

/**
 * The index of the features by rank (size descending — a stored 0 counts as 1, as the tile data
 * ranks it — then id): a dense tile's largest features in order without reading the rest
 * (`largestInBox`: the shared archive's render of tiles too dense for a block, docs/adr/0003).
 */
function rankIndexSql(table: string): string {
  return `CREATE INDEX IF NOT EXISTS ${table}_rank ON ${table} ((CASE WHEN size = 0 THEN 1 ELSE size END) DESC, id)`
}

/** What is missing for `datasets`: tables to create, columns to add, `datasets` rows to insert. */
async function missing(
  db: PgDatabase,
  datasets: readonly DatasetDef[],
): Promise<{ tables: DatasetDef[]; columns: [string, FieldDef][]; rows: string[]; indexes: string[] }> {
  const have = new Map<string, Set<string>>()
  for (const r of await db.query<{ t: string; c: string }>(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
    [datasets.map((d) => tableNames(d.id).features)],
  )) {
    const cols = have.get(r.t) ?? new Set<string>()
    cols.add(r.c)
    have.set(r.t, cols)
  }
  const rows = new Set((await db.query<{ id: string }>('SELECT id FROM datasets')).map((r) => r.id))
  const indexed = new Set(
    (
      await db.query<{ i: string }>(
        `SELECT indexname AS i FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($1::text[])`,
        [datasets.map((d) => `${tableNames(d.id).features}_rank`)],
      )
    ).map((r) => r.i),
  )
  const out = {
    tables: [] as DatasetDef[],
    columns: [] as [string, FieldDef][],
    rows: [] as string[],
    indexes: [] as string[],
  }
  for (const d of datasets) {
    const { features } = tableNames(d.id)
    const cols = have.get(features)
    if (!cols) out.tables.push(d)
    else for (const f of d.fields) if (!cols.has(fieldColumn(f.name))) out.columns.push([features, f])
    // A table made before the rank index gets it here, once.
    if (cols && !indexed.has(`${features}_rank`)) out.indexes.push(features)
    if (!rows.has(d.id)) out.rows.push(d.id)
  }
  return out
}

/**
 * Creates the feature table of every catalog dataset and its `datasets` row, and adds columns
 * for fields added to config since, and the rank index to tables made before it. A store
 * already set up costs three reads; otherwise the changes are made in one transaction under an
 * advisory lock (servers starting together make them once).
 */
export async function ensurePgDatasetTables(db: PgDatabase, datasets: readonly DatasetDef[]): Promise<void> {
  const first = await missing(db, datasets)
  if (first.tables.length + first.columns.length + first.rows.length + first.indexes.length === 0) return
  await db.tx(async () => {
    await db.run('SELECT pg_advisory_xact_lock($1, $2)', [ADVISORY_LOCK_SPACE, TABLES_LOCK])
    const todo = await missing(db, datasets)
    for (const d of todo.tables)
      for (const sql of createSql(d, tableNames(d.id).features, true)) await db.run(sql)
    for (const [table, f] of todo.columns)
      await db.run(`ALTER TABLE ${table} ADD COLUMN ${fieldColumn(f.name)} ${sqlType(f)}`)
    for (const table of todo.indexes) await db.run(rankIndexSql(table))
    for (const id of todo.rows)
      await db.run('INSERT INTO datasets (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id])
  })
}

/** (Re)creates the empty staging table of a dataset (inside the replacing transaction). */
export async function createPgStagingTable(db: PgDatabase, d: DatasetDef): Promise<string> {
  const staging = stagingTable(d.id)
  await db.run(`DROP TABLE IF EXISTS ${staging}`)
  for (const sql of createSql(d, staging, false)) await db.run(sql)
  return staging
}

/** Tries for the lock this long at a time (a reader then runs ahead of the swap, not behind it). */
const LOCK_TRY_MS = 100
/** Tries before waiting without a limit. */
const LOCK_TRIES = 100

async function tableExists(db: PgDatabase, table: string): Promise<boolean> {
  return (await db.one<{ t: string | null }>('SELECT to_regclass($1) AS t', [table]))?.t != null
}

/**
 * Takes the live table's exclusive lock for the swap without making readers queue behind it:
 * while a long read holds the table (another server reading the tile rows), each try gives up
 * after LOCK_TRY_MS, so reads that come meanwhile run instead of waiting for the import; after
 * LOCK_TRIES it waits like any lock.
 */
async function lockPolitely(db: PgDatabase, table: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await db.run('SAVEPOINT eb_swap_lock')
    try {
      await db.run(`SET LOCAL lock_timeout = '${attempt < LOCK_TRIES ? LOCK_TRY_MS : 0}ms'`)
      await db.run(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`)
      await db.run('RELEASE SAVEPOINT eb_swap_lock')
      await db.run('SET LOCAL lock_timeout TO DEFAULT')
      return
    } catch (err) {
      // 55P03 lock_not_available: let the readers go, then try again.
      if ((err as { code?: string }).code !== '55P03') throw err
      await db.run('ROLLBACK TO SAVEPOINT eb_swap_lock')
      await new Promise((resolve) => setTimeout(resolve, LOCK_TRY_MS / 2))
    }
  }
}

/**
 * Indexes the filled staging table and puts it in place of the live one (inside the replacing
 * transaction, so readers see the old table until the commit and the new one after it). No
 * ANALYZE: it cost as much as the GiST build, autovacuum analyzes the new table within a minute,
 * and reads meanwhile go by primary key or GiST. The live table's lock is taken politely.
 */
export async function swapInPgStaging(db: PgDatabase, d: DatasetDef): Promise<void> {
  const { features } = tableNames(d.id)
  const staging = stagingTable(d.id)
  await db.run(`ALTER TABLE ${staging} ADD CONSTRAINT ${staging}_pkey PRIMARY KEY (id)`)
  await db.run(`CREATE INDEX ${staging}_geometry ON ${staging} USING gist (geometry)`)
  await db.run(rankIndexSql(staging))
  if (await tableExists(db, features)) await lockPolitely(db, features)
  await db.run(`DROP TABLE IF EXISTS ${features}`)
  await db.run(`ALTER TABLE ${staging} RENAME TO ${features}`)
  await db.run(`ALTER TABLE ${features} RENAME CONSTRAINT ${staging}_pkey TO ${features}_pkey`)
  await db.run(`ALTER INDEX ${staging}_geometry RENAME TO ${features}_geometry`)
  await db.run(`ALTER INDEX ${staging}_rank RENAME TO ${features}_rank`)
}
