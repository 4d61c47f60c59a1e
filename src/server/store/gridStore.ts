import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { GridRaster } from '../grids/gridRaster'
import type { Awaitable } from './Awaitable'

/** When a grid's values hold: the model run and each stored hour's valid time (ISO 8601). */
export interface GridTimes {
  /** The reference (model run) time; null when the source does not say. */
  readonly refTime: string | null
  /** The valid time of hour n at n; empty when the source gives none. */
  readonly validTimes: readonly string[]
}

/** One grid's new hours for `replaceGrids`. */
export interface GridReplacement {
  readonly id: string
  readonly hours: readonly GridRaster[]
  readonly source: string
  readonly times?: GridTimes
}

/** Gridded fields (forecast hours of a raster), migrations 040/041/042. */
export interface GridStorage {
  /**
   * Replaces every hour of a grid in one transaction (hour n = hours[n]); returns the version.
   * `source` (a file name or URL) and `times` are recorded with it (no times: none recorded).
   */
  replaceGrid(id: string, hours: readonly GridRaster[], source: string, times?: GridTimes): Awaitable<string>
  /**
   * Replaces several grids in ONE transaction (wind_u and wind_v: no reader sees a new u with an
   * old v); returns their versions in order. Nothing is written if any of them is malformed.
   */
  replaceGrids(grids: readonly GridReplacement[]): Awaitable<string[]>
  /** One hour of a grid, or undefined when not stored. */
  grid(id: string, hour?: number): Awaitable<StoredGrid | undefined>
  /** The version of a grid (all hours share it), or undefined when not stored. */
  version(id: string): Awaitable<string | undefined>
  list(): Awaitable<GridSummary[]>
  deleteGrid(id: string): Awaitable<void>
}

/** A stored grid hour: the raster plus its content version. */
export interface StoredGrid extends GridRaster {
  readonly id: string
  readonly hour: number
  readonly version: string
}

/** What is stored for a grid id: its hours and version (for ETags), source and times. */
export interface GridSummary {
  id: string
  hours: number
  nx: number
  ny: number
  version: string
  source: string
  refTime: string | null
  validTimes: string[]
}

/** A `grid_meta` row of `list()` as read (both stores): valid_times is a JSON array. */
export interface GridSummaryRow extends Omit<GridSummary, 'refTime' | 'validTimes'> {
  ref_time: string | null
  valid_times: string | null
}

/** A listed row with its times decoded (both stores). */
export function gridSummary(row: GridSummaryRow): GridSummary {
  const { ref_time, valid_times, ...rest } = row
  let validTimes: string[] = []
  try {
    const parsed: unknown = JSON.parse(valid_times ?? '[]')
    if (Array.isArray(parsed)) validTimes = parsed.map(String)
  } catch {
    validTimes = []
  }
  return { ...rest, refTime: ref_time ?? null, validTimes }
}

/** A `grids` row as read (both stores). */
export interface GridRow {
  nx: number
  ny: number
  west: number
  south: number
  east: number
  north: number
  data: Buffer
  version: string
}

/** Refuses a grid without hours or with an hour whose values do not fill nx × ny (both stores). */
export function checkGridHours({ id, hours }: GridReplacement): void {
  if (hours.length === 0) throw new Error(`grid ${id}: no hours to store`)
  hours.forEach((g, hour) => {
    if (g.data.length !== g.nx * g.ny)
      throw new Error(`grid ${id} hour ${hour}: ${g.data.length} values for ${g.nx}×${g.ny}`)
  })
}

/** A grid's content version (ETags, caches): a hash of every hour's extent and values (both stores). */
/** The grid_meta row of a replacement (id, version, hours, source, ref_time, valid_times), both stores. */
export function gridMetaParams({ id, hours, source, times }: GridReplacement, version: string): unknown[] {
  return [id, version, hours.length, source, times?.refTime ?? null, JSON.stringify(times?.validTimes ?? [])]
}

/** One hour's grids row (id, hour, nx, ny, west, south, east, north, data, version, source), both stores. */
export function gridHourParams(
  id: string,
  hour: number,
  g: GridRaster,
  version: string,
  source: string,
): unknown[] {
  const bytes = Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength)
  return [id, hour, g.nx, g.ny, g.west, g.south, g.east, g.north, bytes, version, source]
}

export function gridVersion(hours: readonly GridRaster[]): string {
  const hash = createHash('sha1')
  for (const g of hours) {
    hash.update(`${g.nx},${g.ny},${g.west},${g.south},${g.east},${g.north};`)
    hash.update(new Uint8Array(g.data.buffer, g.data.byteOffset, g.data.byteLength))
  }
  return hash.digest('hex').slice(0, 16)
}

/** Queries over the `grids` and `grid_meta` tables (migrations 040, 041). */
export class GridStore implements GridStorage {
  private readonly versionQuery: Database.Statement<[string], string>
  private readonly gridQuery: Database.Statement<[string, number], GridRow>

  constructor(private readonly db: Database.Database) {
    this.versionQuery = db.prepare<[string], string>('SELECT version FROM grid_meta WHERE id = ?').pluck()
    this.gridQuery = db.prepare<[string, number], GridRow>(
      'SELECT nx, ny, west, south, east, north, data, version FROM grids WHERE id = ? AND hour = ?',
    )
  }

  /** Replaces every hour of a grid in one transaction (hour n = hours[n]); returns the version. */
  replaceGrid(id: string, hours: readonly GridRaster[], source: string, times?: GridTimes): string {
    return this.replaceGrids([{ id, hours, source, ...(times ? { times } : {}) }])[0]!
  }

  /** Replaces several grids in one transaction; returns their versions in order. */
  replaceGrids(grids: readonly GridReplacement[]): string[] {
    grids.forEach(checkGridHours)
    const versions = grids.map((g) => gridVersion(g.hours))
    const insert = this.db.prepare(
      'INSERT INTO grids (id, hour, nx, ny, west, south, east, north, data, version, source) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
    )
    const remove = this.db.prepare('DELETE FROM grids WHERE id = ?')
    const meta = this.db.prepare(
      'INSERT OR REPLACE INTO grid_meta (id, version, hours, source, ref_time, valid_times) VALUES (?, ?, ?, ?, ?, ?)',
    )
    this.db.transaction(() => {
      grids.forEach((grid, k) => {
        const version = versions[k]!
        remove.run(grid.id)
        meta.run(...gridMetaParams(grid, version))
        grid.hours.forEach((g, hour) => insert.run(...gridHourParams(grid.id, hour, g, version, grid.source)))
      })
    })()
    return versions
  }

  /** One hour of a grid, or undefined when not stored. */
  grid(id: string, hour = 0): StoredGrid | undefined {
    const row = this.gridQuery.get(id, hour)
    if (!row) return undefined
    // Copy into an aligned buffer: SQLite blobs need not be 4-byte aligned.
    const data = new Float32Array(row.nx * row.ny)
    new Uint8Array(data.buffer).set(row.data.subarray(0, data.byteLength))
    const { nx, ny, west, south, east, north, version } = row
    return { id, hour, nx, ny, west, south, east, north, data, version }
  }

  /** The version of a grid (all hours share it), or undefined when not stored. */
  version(id: string): string | undefined {
    return this.versionQuery.get(id)
  }

  list(): GridSummary[] {
    return (
      this.db
        .prepare(
          `SELECT m.id, m.hours, (SELECT nx FROM grids g WHERE g.id = m.id AND g.hour = 0) AS nx,
           (SELECT ny FROM grids g WHERE g.id = m.id AND g.hour = 0) AS ny, m.version, m.source,
           m.ref_time, m.valid_times
         FROM grid_meta m ORDER BY m.id`,
        )
        .all() as GridSummaryRow[]
    ).map(gridSummary)
  }

  deleteGrid(id: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM grids WHERE id = ?').run(id)
      this.db.prepare('DELETE FROM grid_meta WHERE id = ?').run(id)
    })()
  }
}
