import type { AggregateCell } from '../Store'
import { CELL_BITS } from '../writeDataset'
import type { PgDatabase } from './pgDatabase'

/** One level's cells of one dataset version, sorted by key = cx * 2^level + cy (exact in a double). */
interface LevelCells {
  version: number
  keys: Float64Array
  n: Float64Array
}

/**
 * The aggregate cells of each dataset's current version, held in memory per level: loaded by one
 * query (with the version, one snapshot) the first time a tile of that level asks, then answered
 * per tile by a binary search per cell column — no round trip per aggregated tile. `drop(id)`
 * forgets a dataset (its import, here or on another server); a load whose version is not the
 * one asked for is not used (the caller then reads the rows directly).
 */
export class PgCellCache {
  private readonly levels = new Map<string, Promise<LevelCells | null>>()

  constructor(private readonly db: PgDatabase) {}

  drop(id: string): void {
    for (const key of this.levels.keys()) if (key.startsWith(`${id}\u0000`)) this.levels.delete(key)
  }

  /**
   * The cells of tile (zoom, x, y) in (cx, cy) order, from the cached level of `version`; null when
   * the stored version is another (an import between the caller's info and the load).
   */
  async cells(
    id: string,
    version: number,
    zoom: number,
    x: number,
    y: number,
  ): Promise<AggregateCell[] | null> {
    const level = zoom + CELL_BITS
    const key = `${id}\u0000${level}`
    let loading = this.levels.get(key)
    let cells = loading ? await loading : null
    if (cells?.version !== version) {
      // Load again, unless another caller already did since.
      const now = this.levels.get(key)
      if (now === undefined || now === loading) {
        loading = this.load(id, level).catch(() => null)
        this.levels.set(key, loading)
      } else loading = now
      cells = await loading
      if (!cells && this.levels.get(key) === loading) this.levels.delete(key)
      if (!cells || cells.version !== version) return null
    }
    return tileCells(cells, level, x, y)
  }

  private async load(id: string, level: number): Promise<LevelCells | null> {
    // One statement, one snapshot: the cells belong to the version read with them.
    const rows = await this.db.rows(
      `SELECT d.version, c.cx, c.cy, c.n FROM datasets d
       LEFT JOIN agg_cells c ON c.dataset = d.id AND c.level = $2
       WHERE d.id = $1 ORDER BY c.cx, c.cy`,
      [id, level],
    )
    if (rows.length === 0) return null
    const side = 2 ** level
    const cells = rows.filter((r) => r[1] !== null)
    const keys = new Float64Array(cells.length)
    const n = new Float64Array(cells.length)
    cells.forEach((r, i) => {
      keys[i] = Number(r[1]) * side + Number(r[2])
      n[i] = Number(r[3])
    })
    return { version: Number(rows[0]?.[0] ?? 0), keys, n }
  }
}

/** First index whose key is ≥ k. */
function lowerBound(keys: Float64Array, k: number): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((keys[mid] as number) < k) lo = mid + 1
    else hi = mid
  }
  return lo
}

function tileCells({ keys, n }: LevelCells, level: number, x: number, y: number): AggregateCell[] {
  const k = 2 ** CELL_BITS
  const side = 2 ** level
  const out: AggregateCell[] = []
  const y0 = y * k
  const y1 = y0 + k - 1
  for (let cx = x * k; cx < x * k + k; cx++) {
    const end = cx * side + y1
    for (let i = lowerBound(keys, cx * side + y0); i < keys.length && (keys[i] as number) <= end; i++)
      out.push({ cx, cy: (keys[i] as number) - cx * side, n: n[i] as number })
  }
  return out
}
