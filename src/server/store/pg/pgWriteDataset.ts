import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { from as copyFrom } from 'pg-copy-streams'
import { countCells, CELL_BITS, type ZoomCells } from '../aggregateCells'
import type { DatasetDef } from '../catalog'
import type { ColumnIndex } from '../columnIndex'
import { columnIndexRows } from '../columnIndexStore'
import { fieldColumn, tableNames } from '../datasetTables'
import { mercX, mercY } from '../geometryCodec'
import { datasetMetaParams, RowTally, type EncodedRow, type ReplaceOptions } from '../writeDataset'
import { blobToEwkb } from './ewkb'
import { CopyBinaryWriter } from './copyBinary'
import { createPgStagingTable, FIXED_COLUMNS, swapInPgStaging } from './pgDatasetTables'
import { ADVISORY_LOCK_SPACE, type PgDatabase } from './pgDatabase'
import { dropStalePgStaging } from './pgStaleStaging'

/** The channel every server listens on: `{ id, version }` of a dataset replaced (sent at commit). */
export const DATASET_CHANNEL = 'emberline_dataset'

/** Bytes per COPY chunk handed to the connection. */
const CHUNK_BYTES = 256 * 1024

/** The rows in binary COPY format (chunks of about CHUNK_BYTES), tallied on the way. */
async function* copyChunks(
  d: DatasetDef,
  rows: Iterable<EncodedRow> | AsyncIterable<EncodedRow>,
  tally: RowTally,
): AsyncGenerator<Buffer> {
  const numeric = d.fields.map((f) => f.type === 'number')
  const width = FIXED_COLUMNS.length + d.fields.length
  const w = new CopyBinaryWriter()
  for await (const g of rows) {
    w.row(width)
    w.int4(tally.add(g))
    w.float8(g.minx)
    w.float8(g.miny)
    w.float8(g.maxx)
    w.float8(g.maxy)
    w.float8(g.size)
    w.bytes(g.blob)
    w.bytes(Number.isNaN(g.minx) ? null : blobToEwkb(g.blob, d.geometry))
    g.values.forEach((v, j) => {
      if (v === null) w.null()
      else if (numeric[j]) w.float8(Number(v))
      else w.text(String(v))
    })
    if (w.size >= CHUNK_BYTES) yield w.take()
  }
  w.end()
  yield w.take()
}

/** Replaces a dataset's aggregate cells (inside the caller's transaction): one binary COPY. */
export async function writePgCells(db: PgDatabase, id: string, cells: readonly ZoomCells[]): Promise<void> {
  await db.run('DELETE FROM agg_cells WHERE dataset = $1', [id])
  if (cells.every((c) => c.n.length === 0)) return
  async function* chunks(): AsyncGenerator<Buffer> {
    const w = new CopyBinaryWriter()
    for (const c of cells)
      for (let i = 0; i < c.n.length; i++) {
        w.row(5)
        w.text(id)
        w.int4(c.zoom + CELL_BITS)
        w.int4(c.cx[i] as number)
        w.int4(c.cy[i] as number)
        w.int4(c.n[i] as number)
        if (w.size >= CHUNK_BYTES) yield w.take()
      }
    w.end()
    yield w.take()
  }
  await db.withClient(async (client) => {
    const copy = client.query(
      copyFrom('COPY agg_cells (dataset, level, cx, cy, n) FROM STDIN (FORMAT binary)'),
    )
    await pipeline(Readable.from(chunks()), copy)
  })
}

/** Writes a column index for `version` of a dataset (replacing any previous one). */
export async function persistPgColumnIndex(
  db: PgDatabase,
  datasetId: string,
  version: number,
  index: ColumnIndex,
  fields: ReplaceOptions['indexFields'] = [],
): Promise<void> {
  await db.run('DELETE FROM column_index WHERE dataset = $1', [datasetId])
  for (const r of columnIndexRows(index, fields))
    await db.run(
      'INSERT INTO column_index (dataset, field, version, kind, data, dict) VALUES ($1, $2, $3, $4, $5, $6)',
      [datasetId, r.field, version, r.kind, r.data, r.dict],
    )
}

/**
 * Replaces every feature of a dataset in one transaction (or inside the caller's, the demo
 * seed): the rows are COPied into a staging table beside the live one (binary format, the
 * PostGIS geometry as EWKB), indexed (primary key, GiST), then swapped in with the new version,
 * count, bbox, aggregate cells and column index, and `pg_notify(DATASET_CHANNEL, {id, version})`
 * — delivered to every listening server at the commit. Imports of one dataset take turns (an
 * advisory lock); readers see the old rows until the commit, the new after. On any error (a bad
 * feature, a failed COPY) the transaction rolls back: the live data and version stay as they were.
 */
export async function pgReplaceDatasetRows(
  db: PgDatabase,
  d: DatasetDef,
  rows: Iterable<EncodedRow> | AsyncIterable<EncodedRow>,
  options: ReplaceOptions,
): Promise<{ n: number; version: number }> {
  // Leftover staging tables no running import owns go first (as at every store open).
  if (!db.inTransaction) await dropStalePgStaging(db)
  return db.tx(async () => {
    await db.run('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ADVISORY_LOCK_SPACE, `dataset:${d.id}`])
    const staging = await createPgStagingTable(db, d)
    const tally = new RowTally(d, options)
    const columns = [...FIXED_COLUMNS, ...d.fields.map((f) => fieldColumn(f.name))].join(', ')
    await db.withClient(async (client) => {
      const copy = client.query(copyFrom(`COPY ${staging} (${columns}) FROM STDIN (FORMAT binary)`))
      await pipeline(Readable.from(copyChunks(d, rows, tally)), copy)
    })
    await swapInPgStaging(db, d)
    return finish(db, d, tally, options)
  })
}

/** Cells, version, count, bbox, column index and the notification of the rows just written. */
async function finish(
  db: PgDatabase,
  d: DatasetDef,
  tally: RowTally,
  options: ReplaceOptions,
): Promise<{ n: number; version: number }> {
  const { n } = tally
  const extras = tally.extras()
  await writePgCells(db, d.id, extras.cells)
  await db.run('INSERT INTO datasets (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [d.id])
  const row = await db.one<{ version: number }>(
    `UPDATE datasets SET version = version + 1, feature_count = $2, minx = $3, miny = $4, maxx = $5,
     maxy = $6, agg_levels = $7, updated_at = $8 WHERE id = $1 RETURNING version`,
    [d.id, ...datasetMetaParams(tally, options)],
  )
  const version = row?.version ?? 0
  await persistPgColumnIndex(db, d.id, version, extras.index, options.indexFields)
  await db.run('SELECT pg_notify($1, $2)', [DATASET_CHANNEL, JSON.stringify({ id: d.id, version })])
  options.onProgress?.(n)
  return { n, version }
}

/** Rebuilds only the aggregate cells (when the configured aggregate zooms changed). */
export async function rebuildPgCells(
  db: PgDatabase,
  d: DatasetDef,
  aggZooms: readonly number[],
): Promise<void> {
  await db.tx(async () => {
    const rows = await db.rows(
      `SELECT minx, miny, maxx, maxy FROM ${tableNames(d.id).features} WHERE minx IS NOT NULL`,
    )
    const centerX = rows.map((r) => mercX(((r[0] as number) + (r[2] as number)) / 2))
    const centerY = rows.map((r) => mercY(((r[1] as number) + (r[3] as number)) / 2))
    await writePgCells(db, d.id, countCells(centerX, centerY, aggZooms))
    await db.run('UPDATE datasets SET agg_levels = $2 WHERE id = $1', [d.id, aggZooms.join(',')])
  })
}
