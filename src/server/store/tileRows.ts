import type Database from 'better-sqlite3'
import type { DatasetDef } from './catalog'
import { fieldColumn, tableNames } from './datasetTables'
import { mercX, mercY } from './geometryCodec'
import { placeholder, type Dialect } from './rows/codec'

/** A dataset's rows with geometry as the tile index reads them: `[id, size, geom, ...fields]` in id order. */
export interface TileRows {
  version: number
  count: number
  /** The dataset's bbox as recorded at import (identifies the data with version and count). */
  bbox: [number, number, number, number] | null
  rows: Iterable<unknown[]>
}

/**
 * Every row of a dataset for the in-memory tile index (src/server/tiles/tileData.ts). Call inside
 * a read transaction when the version must match the rows (the worker does).
 */
export function tileRows(
  db: Database.Database,
  d: DatasetDef,
  inBox?: readonly [number, number, number, number],
): TileRows {
  const { features } = tableNames(d.id)
  const meta = db
    .prepare('SELECT version, minx, miny, maxx, maxy FROM datasets WHERE id = ?')
    .raw()
    .get(d.id) as [number, number | null, number | null, number | null, number | null] | undefined
  const version = Number(meta?.[0] ?? 0)
  const box = meta?.slice(1) ?? []
  const bbox =
    box.length === 4 && box.every((v) => typeof v === 'number')
      ? (box as [number, number, number, number])
      : null
  // With a box, `count` is the rows in the box (a block of a render), not the dataset's.
  const where = inBox ? ' AND maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ?' : ''
  const args = inBox ? [inBox[0], inBox[2], inBox[1], inBox[3]] : []
  const count = inBox
    ? Number(
        db
          .prepare(`SELECT count(*) FROM ${features} WHERE minx IS NOT NULL${where}`)
          .pluck()
          .get(...args),
      )
    : Number(db.prepare(`SELECT count(*) FROM ${features}`).pluck().get())
  const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
  // Records kept without geometry (NULL bbox) are not drawn; `count` stays every row (the stamp).
  const statement = db
    .prepare(`SELECT id, size, geom${cols} FROM ${features} WHERE minx IS NOT NULL${where} ORDER BY id`)
    .raw()
  // The statement runs when the rows are iterated, not here: an open better-sqlite3 iterator
  // refuses every write on the connection, and a caller may await between getting and reading.
  const rows: Iterable<unknown[]> = {
    [Symbol.iterator]: () => statement.iterate(...args) as Iterator<unknown[]>,
  }
  return { version, count, bbox, rows }
}

/** A box in Web Mercator world units (0..1, y down): [minX, minY, maxX, maxY], as the tile data's index. */
export type MercatorBox = readonly [number, number, number, number]

/** One tile's largest features for a render piece (`Store.largestInBox`). */
export interface LargestRows {
  /** The dataset version the rows belong to (read in the same snapshot). */
  version: number
  /** `[id, size, geom, ...fields]` in id order (as `TileRows`): at most `limit` rows. */
  rows: unknown[][]
  /** Features matching (box meets, size ≥ minSize), counted up to `limit + 1`. */
  matched: number
  /**
   * True when a feature under `minSize` meets the box; null when not looked up: `matched` is over
   * `limit` (the tile is thinned and its children visited anyway) or `minSize` is 0.
   */
  hasSmaller: boolean | null
}

/** A stored size as the tile data ranks it (tileData.ts: a stored 0 counts as 1). */
const RANK = 'CASE WHEN size = 0 THEN 1 ELSE size END'

/** Rows a page of `largestInBox` reads beyond `limit + 1`: features in the margin, not in the box. */
const PAGE_SLACK = 64

/** Margin (world units) of the lon/lat box the store is asked for: floating-point slack. */
const CANDIDATE_MARGIN = 1e-9

/**
 * The lon/lat box holding every feature whose Mercator box meets `box` (with a margin; the rows
 * are then checked exactly, `meetsMercator`). Beyond the Mercator rows' edges (y ≤ 0 or ≥ 1, where
 * `mercY` clamps latitudes past ±85.05°) the box reaches the pole.
 */
export function candidateBox(box: MercatorBox): [number, number, number, number] {
  const lon = (x: number) => (x - 0.5) * 360
  const lat = (y: number) =>
    y <= 0 ? 90 : y >= 1 ? -90 : (180 / Math.PI) * Math.atan(Math.sinh(Math.PI * (1 - 2 * y)))
  const m = CANDIDATE_MARGIN
  return [lon(box[0] - m), lat(box[3] + m), lon(box[2] + m), lat(box[1] - m)]
}

/**
 * True when the Mercator box of an encoded geometry (geometryCodec) meets `box` (edges included):
 * the same box, computed the same way, as the tile data's index holds (tileData.ts).
 */
export function meetsMercator(blob: Uint8Array, box: MercatorBox): boolean {
  const g =
    blob.byteOffset % 8 === 0
      ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength >> 3)
      : new Float64Array(new Uint8Array(blob).buffer)
  let minx = Infinity
  let miny = Infinity
  let maxx = -Infinity
  let maxy = -Infinity
  let p = 0
  const nParts = g[p++] as number
  for (let i = 0; i < nParts; i++) {
    const nRings = g[p++] as number
    for (let r = 0; r < nRings; r++) {
      const nPts = g[p++] as number
      for (let j = 0; j < nPts; j++) {
        const x = mercX(g[p++] as number)
        const y = mercY(g[p++] as number)
        if (x < minx) minx = x
        if (x > maxx) maxx = x
        if (y < miny) miny = y
        if (y > maxy) maxy = y
      }
    }
  }
  return minx <= box[2] && miny <= box[3] && maxx >= box[0] && maxy >= box[1]
}

/** A statement of `largestInBox` and its parameters in order (`?` for SQLite, `$n` for PostgreSQL). */
export interface BoxStatement {
  sql: string
  params: unknown[]
}

/** The next placeholder of a statement, numbered in order of use. */
function placeholders(dialect: Dialect): () => string {
  let n = 0
  return () => placeholder(dialect, n++)
}

/**
 * The statements of `largestInBox`, the same for both stores but for placeholders and PostgreSQL's
 * GiST condition, with the row checks (`LargestCollector`). `page` reads the next rows by rank
 * (size descending, id ascending) after `after` (the last rank and id read); `smaller` reads
 * features under `minSize` in id order after id `afterId`. PostgreSQL's ranked page leaves the
 * GiST condition out so that the index on the rank (`<table>_rank`) answers a dense tile's
 * largest in order, whatever the table's statistics.
 */
export function largestStatements(d: DatasetDef, dialect: Dialect, box: MercatorBox) {
  const { features } = tableNames(d.id)
  const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
  const [w, s, e, n] = candidateBox(box)
  const inBox = (p: () => string, params: unknown[]) => {
    params.push(w, e, s, n)
    return `maxx >= ${p()} AND minx <= ${p()} AND maxy >= ${p()} AND miny <= ${p()}`
  }
  return {
    page(minSize: number, after: [number, number] | null, rows: number): BoxStatement {
      const p = placeholders(dialect)
      const params: unknown[] = []
      let sql = `SELECT id, size, geom${cols} FROM ${features} WHERE minx IS NOT NULL AND ${inBox(p, params)}`
      sql += ` AND ${RANK} >= ${p()}`
      params.push(minSize)
      if (after) {
        sql += ` AND (${RANK} < ${p()} OR (${RANK} = ${p()} AND id > ${p()}))`
        params.push(after[0], after[0], after[1])
      }
      sql += ` ORDER BY ${RANK} DESC, id LIMIT ${p()}`
      params.push(rows)
      return { sql, params }
    },
    smaller(minSize: number, afterId: number, rows: number): BoxStatement {
      const p = placeholders(dialect)
      const params: unknown[] = []
      let sql = `SELECT id, geom FROM ${features} WHERE minx IS NOT NULL AND ${inBox(p, params)}`
      if (dialect === 'postgres') {
        sql += ` AND geometry && ST_MakeEnvelope(${p()}, ${p()}, ${p()}, ${p()}, 4326)`
        params.push(w, s, e, n)
      }
      sql += ` AND ${RANK} < ${p()} AND id > ${p()} ORDER BY id LIMIT ${p()}`
      params.push(minSize, afterId, rows)
      return { sql, params }
    },
  }
}

/**
 * The row checks of `largestInBox`, fed the pages its store reads: keeps the rows whose Mercator
 * box meets the box exactly, up to `limit + 1`, and says what to read next.
 */
export class LargestCollector {
  /** Matching rows by rank (size descending, id ascending). */
  private readonly kept: unknown[][] = []
  private after: [number, number] | null = null
  private afterId = 0
  hasSmaller: boolean | null = null
  readonly pageRows: number

  constructor(
    private readonly box: MercatorBox,
    readonly minSize: number,
    readonly limit: number,
  ) {
    this.pageRows = limit + 1 + PAGE_SLACK
  }

  /** The next ranked page to read (null: enough rows or none left). */
  nextPage(): { after: [number, number] | null } | null {
    return this.kept.length > this.limit ? null : { after: this.after }
  }

  /** Takes a ranked page; false when it was the last one. */
  addPage(rows: unknown[][]): boolean {
    for (const row of rows) {
      const size = Number(row[1])
      this.after = [size === 0 ? 1 : size, Number(row[0])]
      if (this.kept.length <= this.limit && meetsMercator(row[2] as Uint8Array, this.box)) this.kept.push(row)
    }
    return rows.length === this.pageRows
  }

  /** True when the smaller features must be looked up (`smaller` statements). */
  get needsSmaller(): boolean {
    return this.minSize > 0 && this.kept.length <= this.limit && this.hasSmaller === null
  }

  /** Takes a page of smaller features (id, geom); false when it settled the question. */
  addSmaller(rows: unknown[][], pageRows: number): boolean {
    for (const row of rows) {
      this.afterId = Number(row[0])
      if (meetsMercator(row[1] as Uint8Array, this.box)) {
        this.hasSmaller = true
        return false
      }
    }
    if (rows.length < pageRows) this.hasSmaller = false
    return this.hasSmaller === null
  }

  get smallerAfter(): number {
    return this.afterId
  }

  result(version: number): LargestRows {
    const rows = this.kept.slice(0, this.limit).sort((a, b) => Number(a[0]) - Number(b[0]))
    return { version, rows, matched: this.kept.length, hasSmaller: this.hasSmaller }
  }
}

/** Rows a page of smaller features reads. */
export const SMALLER_PAGE = 64

/**
 * `Store.largestInBox` on SQLite (inside one read transaction: the version matches the rows). No
 * index serves the rank here: SQLite mode renders its archives from the whole tile data.
 */
export function largestInBox(
  db: Database.Database,
  d: DatasetDef,
  box: MercatorBox,
  minSize: number,
  limit: number,
): LargestRows {
  return db.transaction(() => {
    const version = Number(db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(d.id) ?? 0)
    const st = largestStatements(d, 'sqlite', box)
    const c = new LargestCollector(box, minSize, Math.max(0, Math.floor(limit)))
    for (let next = c.nextPage(); next; next = c.nextPage()) {
      const { sql, params } = st.page(minSize, next.after, c.pageRows)
      if (
        !c.addPage(
          db
            .prepare(sql)
            .raw()
            .all(...params) as unknown[][],
        )
      )
        break
    }
    while (c.needsSmaller) {
      const { sql, params } = st.smaller(minSize, c.smallerAfter, SMALLER_PAGE)
      if (
        !c.addSmaller(
          db
            .prepare(sql)
            .raw()
            .all(...params) as unknown[][],
          SMALLER_PAGE,
        )
      )
        break
    }
    return c.result(version)
  })()
}
