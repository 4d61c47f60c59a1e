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
    ...(keys ? [`CREATE INDEX IF NOT EXISTS ${table}_geometry ON ${table} USING gist (geometry)`] : []),
  ]
}

/**
 * Creates the feature table of every catalog dataset and its `datasets` row, and adds columns
 * for fields added to config since (one transaction under an advisory lock: servers starting
 * together do it once).
 */
export async function ensurePgDatasetTables(db: PgDatabase, datasets: readonly DatasetDef[]): Promise<void> {
  await db.tx(async () => {
    await db.run('SELECT pg_advisory_xact_lock($1, $2)', [ADVISORY_LOCK_SPACE, TABLES_LOCK])
    for (const d of datasets) {
      const { features } = tableNames(d.id)
      for (const sql of createSql(d, features, true)) await db.run(sql)
      await db.run('INSERT INTO datasets (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [d.id])
      const have = new Set(
        (
          await db.query<{ name: string }>(
            `SELECT column_name AS name FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1`,
            [features],
          )
        ).map((r) => r.name),
      )
      for (const f of d.fields) {
        const col = fieldColumn(f.name)
        if (!have.has(col)) await db.run(`ALTER TABLE ${features} ADD COLUMN ${col} ${sqlType(f)}`)
      }
    }
  })
}

/** (Re)creates the empty staging table of a dataset (inside the replacing transaction). */
export async function createPgStagingTable(db: PgDatabase, d: DatasetDef): Promise<string> {
  const staging = stagingTable(d.id)
  await db.run(`DROP TABLE IF EXISTS ${staging}`)
  for (const sql of createSql(d, staging, false)) await db.run(sql)
  return staging
}

/**
 * Indexes the filled staging table and puts it in place of the live one (inside the replacing
 * transaction, so readers see the old table until the commit and the new one after it).
 */
export async function swapInPgStaging(db: PgDatabase, d: DatasetDef): Promise<void> {
  const { features } = tableNames(d.id)
  const staging = stagingTable(d.id)
  await db.run(`ALTER TABLE ${staging} ADD CONSTRAINT ${staging}_pkey PRIMARY KEY (id)`)
  await db.run(`CREATE INDEX ${staging}_geometry ON ${staging} USING gist (geometry)`)
  await db.run(`ANALYZE ${staging}`)
  await db.run(`DROP TABLE IF EXISTS ${features}`)
  await db.run(`ALTER TABLE ${staging} RENAME TO ${features}`)
  await db.run(`ALTER TABLE ${features} RENAME CONSTRAINT ${staging}_pkey TO ${features}_pkey`)
  await db.run(`ALTER INDEX ${staging}_geometry RENAME TO ${features}_geometry`)
}
