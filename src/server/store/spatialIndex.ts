import type Database from 'better-sqlite3'
import Flatbush from 'flatbush'
import { tableNames } from './datasetTables'

/**
 * The bboxes and sizes of one dataset in memory (Flatbush, packed Hilbert R-tree): a tile's
 * candidates in microseconds instead of an R*Tree scan, and the "keep the largest N" choice in
 * typed arrays. Geometry and attributes stay in SQLite and are read by id.
 */
export class SpatialIndex {
  private constructor(
    private readonly index: Flatbush | null,
    private readonly ids: Int32Array,
    private readonly sizes: Float64Array,
  ) {}

  static build(db: Database.Database, datasetId: string, pointSize = 1): SpatialIndex {
    const { features } = tableNames(datasetId)
    const n = Number(db.prepare(`SELECT count(*) FROM ${features}`).pluck().get())
    const ids = new Int32Array(n)
    const sizes = new Float64Array(n)
    const index = n > 0 ? new Flatbush(n) : null
    let i = 0
    for (const row of db
      .prepare(`SELECT id, minx, miny, maxx, maxy, size FROM ${features} ORDER BY id`)
      .raw()
      .iterate()) {
      const [id, minx, miny, maxx, maxy, size] = row as number[]
      if (i >= n) break
      ids[i] = id as number
      sizes[i] = size === 0 ? pointSize : (size as number)
      index?.add(minx as number, miny as number, maxx as number, maxy as number)
      i += 1
    }
    index?.finish()
    return new SpatialIndex(index, ids, sizes)
  }

  /** Ids meeting `box` with size ≥ minSize; the `limit` largest (ties by id) when more match. */
  search(
    box: readonly [number, number, number, number],
    minSize: number,
    limit: number,
  ): { ids: number[]; matched: number } {
    if (!this.index) return { ids: [], matched: 0 }
    const hits = this.index.search(
      box[0],
      box[1],
      box[2],
      box[3],
      (k) => (this.sizes[k] as number) >= minSize,
    )
    if (hits.length <= limit)
      return { ids: hits.map((k) => this.ids[k] as number).sort((a, b) => a - b), matched: hits.length }
    const sorted = Float64Array.from(hits, (k) => this.sizes[k] as number).sort()
    const threshold = sorted[sorted.length - limit] as number
    const above = hits.filter((k) => (this.sizes[k] as number) > threshold)
    const ties = hits.filter((k) => this.sizes[k] === threshold).sort((a, b) => a - b)
    const chosen = above.concat(ties.slice(0, limit - above.length))
    return { ids: chosen.map((k) => this.ids[k] as number).sort((a, b) => a - b), matched: hits.length }
  }
}
