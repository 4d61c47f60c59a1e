import type Database from 'better-sqlite3'

/** Cells per tile side of the aggregated zooms is 2^CELL_BITS (64 → 8 px cells on 512 px tiles). */
export const CELL_BITS = 6

/** Feature counts of one aggregated zoom: parallel arrays of global cell x, y (level zoom + CELL_BITS) and count. */
export interface ZoomCells {
  zoom: number
  cx: Float64Array
  cy: Float64Array
  n: Float64Array
}

/**
 * Counts features per cell for every zoom of `zooms` from their Web Mercator centres (0..1).
 * One sort at the finest zoom; each coarser zoom merges the distinct cells of the next finer
 * one, so the cost is one sort of the features plus work proportional to the occupied cells.
 */
export function countCells(
  centerX: readonly number[],
  centerY: readonly number[],
  zooms: readonly number[],
): ZoomCells[] {
  const desc = [...new Set(zooms)].sort((a, b) => b - a)
  const finest = desc[0]
  if (finest === undefined) return []
  const scale = 2 ** (finest + CELL_BITS)
  const keys = new Float64Array(centerX.length)
  for (let i = 0; i < keys.length; i++) {
    const x = Math.min(Math.floor((centerX[i] as number) * scale), scale - 1)
    const y = Math.min(Math.floor((centerY[i] as number) * scale), scale - 1)
    keys[i] = x * scale + y
  }
  keys.sort()
  const cx: number[] = []
  const cy: number[] = []
  const n: number[] = []
  for (let i = 0; i < keys.length;) {
    const k = keys[i] as number
    let j = i + 1
    while (j < keys.length && keys[j] === k) j++
    const x = Math.floor(k / scale)
    cx.push(x)
    cy.push(k - x * scale)
    n.push(j - i)
    i = j
  }
  const out: ZoomCells[] = [
    { zoom: finest, cx: Float64Array.from(cx), cy: Float64Array.from(cy), n: Float64Array.from(n) },
  ]
  for (let z = 1; z < desc.length; z++) {
    const prev = out[z - 1] as ZoomCells
    const zoom = desc[z] as number
    const div = 2 ** (prev.zoom - zoom)
    const side = 2 ** (zoom + CELL_BITS)
    const merged = new Map<number, number>()
    for (let i = 0; i < prev.n.length; i++) {
      const key = Math.floor((prev.cx[i] as number) / div) * side + Math.floor((prev.cy[i] as number) / div)
      merged.set(key, (merged.get(key) ?? 0) + (prev.n[i] as number))
    }
    const cells: ZoomCells = {
      zoom,
      cx: new Float64Array(merged.size),
      cy: new Float64Array(merged.size),
      n: new Float64Array(merged.size),
    }
    // In (cx, cy) order, as the finest zoom: rows then go into agg_cells in primary-key order.
    const keys = Float64Array.from(merged.keys()).sort()
    keys.forEach((key, i) => {
      const x = Math.floor(key / side)
      cells.cx[i] = x
      cells.cy[i] = key - x * side
      cells.n[i] = merged.get(key) as number
    })
    out.push(cells)
  }
  return out
}

const CELL_BATCH = 200

/** Replaces the stored cells of a dataset (inside the caller's transaction), 200 rows per INSERT. */
export function writeCells(db: Database.Database, id: string, cells: readonly ZoomCells[]): void {
  db.prepare('DELETE FROM agg_cells WHERE dataset = ?').run(id)
  const sql = 'INSERT INTO agg_cells (dataset, level, cx, cy, n) VALUES '
  const many = db.prepare(sql + Array.from({ length: CELL_BATCH }, () => '(?, ?, ?, ?, ?)').join(', '))
  const one = db.prepare(sql + '(?, ?, ?, ?, ?)')
  const pending: (string | number)[] = []
  // Ascending level, then (cx, cy): the table's primary-key order (appends, no page splits).
  for (const c of [...cells].sort((a, b) => a.zoom - b.zoom)) {
    for (let i = 0; i < c.n.length; i++) {
      pending.push(id, c.zoom + CELL_BITS, c.cx[i] as number, c.cy[i] as number, c.n[i] as number)
      if (pending.length === 5 * CELL_BATCH) {
        many.run(pending)
        pending.length = 0
      }
    }
  }
  for (let i = 0; i < pending.length; i += 5) one.run(pending.slice(i, i + 5))
}
