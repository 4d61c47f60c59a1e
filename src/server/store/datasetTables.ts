import type Database from 'better-sqlite3'
import type { DatasetDef, FieldDef } from './catalog'

/**
 * Table names of one dataset: attributes + geometry, and `rtree`, the R*Tree bbox index that
 * earlier versions kept (tiles use the in-memory Flatbush index now); only dropped on replace.
 */
export function tableNames(datasetId: string): { features: string; rtree: string } {
  if (!/^[a-z][a-z0-9_]*$/.test(datasetId)) throw new Error(`bad dataset id ${datasetId}`)
  return { features: `ds_${datasetId}`, rtree: `rt_${datasetId}` }
}

/** SQL column of a field (prefixed so a field can never clash with the fixed columns). */
export function fieldColumn(field: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(field)) throw new Error(`bad field name ${field}`)
  return `f_${field}`
}

function sqlType(f: FieldDef): string {
  return f.type === 'number' ? 'REAL' : 'TEXT'
}

function createSql(d: DatasetDef, features = tableNames(d.id).features): string[] {
  const cols = d.fields.map((f) => `${fieldColumn(f.name)} ${sqlType(f)}`)
  return [
    // minx … size are NULL for a record kept without geometry (its geom holds no parts); a table
    // created before that was allowed keeps NOT NULL until its next replace, which creates it anew.
    `CREATE TABLE IF NOT EXISTS ${features} (id INTEGER PRIMARY KEY, minx REAL, miny REAL,
      maxx REAL, maxy REAL, size REAL, geom BLOB NOT NULL${cols.map((c) => ', ' + c).join('')})`,
    `INSERT OR IGNORE INTO datasets (id) VALUES ('${d.id}')`,
  ]
}

/** Creates the tables of every catalog dataset and adds columns for fields added to config since. */
export function ensureDatasetTables(db: Database.Database, datasets: readonly DatasetDef[]): void {
  db.transaction(() => {
    for (const d of datasets) {
      for (const sql of createSql(d)) db.exec(sql)
      const { features } = tableNames(d.id)
      const have = new Set(
        db
          .prepare(`SELECT name FROM pragma_table_info('${features}')`)
          .pluck()
          .all()
          .map((n) => String(n)),
      )
      for (const f of d.fields) {
        const col = fieldColumn(f.name)
        if (!have.has(col)) db.exec(`ALTER TABLE ${features} ADD COLUMN ${col} ${sqlType(f)}`)
      }
    }
  })()
}

/** The table a replacement is written into beside the live one, then renamed over it. */
export function stagingTable(datasetId: string): string {
  return `${tableNames(datasetId).features}__staging`
}

/** (Re)creates the empty staging table of a dataset (inside the caller's transaction). */
export function createStagingTable(db: Database.Database, d: DatasetDef): string {
  const staging = stagingTable(d.id)
  db.exec(`DROP TABLE IF EXISTS ${staging}`)
  for (const sql of createSql(d, staging)) db.exec(sql)
  return staging
}

/**
 * Puts the filled staging table in place of the live one (inside the caller's short transaction):
 * the live table is renamed aside (`__old`, emptied and dropped afterwards by dropRetired), so
 * the swap itself moves no rows.
 */
export function swapInStaging(db: Database.Database, d: DatasetDef): void {
  const { features, rtree } = tableNames(d.id)
  db.exec(`DROP TABLE IF EXISTS ${features}__old`)
  db.exec(`ALTER TABLE ${features} RENAME TO ${features}__old`)
  db.exec(`ALTER TABLE ${stagingTable(d.id)} RENAME TO ${features}`)
  db.exec(`DROP TABLE IF EXISTS ${rtree}`)
}

/** Empties the retired table in short transactions of `chunk` rows, then drops it. */
export function dropRetired(db: Database.Database, d: DatasetDef, chunk = 50_000): void {
  const old = `${tableNames(d.id).features}__old`
  const exists = () => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(old)
  if (!exists()) return
  const remove = db.prepare(`DELETE FROM ${old} WHERE id IN (SELECT id FROM ${old} LIMIT ?)`)
  while (remove.run(chunk).changes > 0) {
    // each DELETE is its own short write transaction
  }
  db.exec(`DROP TABLE IF EXISTS ${old}`)
}

/** Drops and recreates a dataset's table (inside the caller's transaction); drops a legacy R*Tree. */
export function recreateDatasetTables(db: Database.Database, d: DatasetDef): void {
  const { features, rtree } = tableNames(d.id)
  db.exec(`DROP TABLE IF EXISTS ${features}`)
  db.exec(`DROP TABLE IF EXISTS ${rtree}`)
  for (const sql of createSql(d)) db.exec(sql)
}
