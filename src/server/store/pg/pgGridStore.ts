import type { GridStorage } from '../AppStore'
import type { GridRaster } from '../../grids/gridRaster'
import {
  checkGridHours,
  gridHourParams,
  gridMetaParams,
  gridSummary,
  gridVersion,
  type GridReplacement,
  type GridRow,
  type GridSummary,
  type GridSummaryRow,
  type GridTimes,
  type StoredGrid,
} from '../gridStore'
import type { PgDatabase } from './pgDatabase'

/** Gridded fields in PostgreSQL (`grids`, `grid_meta`; migration data/002): the SQLite GridStore's answers. */
export class PgGridStore implements GridStorage {
  constructor(private readonly db: PgDatabase) {}

  /** Replaces every hour of a grid in one transaction (hour n = hours[n]); returns the version. */
  async replaceGrid(
    id: string,
    hours: readonly GridRaster[],
    source: string,
    times?: GridTimes,
  ): Promise<string> {
    return (await this.replaceGrids([{ id, hours, source, ...(times ? { times } : {}) }]))[0]!
  }

  /** Replaces several grids in one transaction; returns their versions in order. */
  async replaceGrids(grids: readonly GridReplacement[]): Promise<string[]> {
    grids.forEach(checkGridHours)
    const versions = grids.map((g) => gridVersion(g.hours))
    await this.db.tx(async () => {
      for (const [k, grid] of grids.entries()) {
        const version = versions[k]!
        await this.db.run('DELETE FROM grids WHERE id = $1', [grid.id])
        await this.db.run(
          `INSERT INTO grid_meta (id, version, hours, source, ref_time, valid_times) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO UPDATE SET version = excluded.version, hours = excluded.hours, source = excluded.source,
             ref_time = excluded.ref_time, valid_times = excluded.valid_times`,
          gridMetaParams(grid, version),
        )
        for (const [hour, g] of grid.hours.entries())
          await this.db.run(
            `INSERT INTO grids (id, hour, nx, ny, west, south, east, north, data, version, source)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
            gridHourParams(grid.id, hour, g, version, grid.source),
          )
      }
    })
    return versions
  }

  /** One hour of a grid, or undefined when not stored. */
  async grid(id: string, hour = 0): Promise<StoredGrid | undefined> {
    // The cells as base64 text, not bytea's hex: a 5.6 MB grid (LANDFIRE-sized fuels) decodes in
    // 55 ms of this thread's CPU instead of 115–300 ms, and a run's inputs are seven such grids.
    const row = await this.db.one<Omit<GridRow, 'data'> & { data: string }>(
      `SELECT nx, ny, west, south, east, north, encode(data, 'base64') AS data, version FROM grids
       WHERE id = $1 AND hour = $2`,
      [id, hour],
    )
    if (!row) return undefined
    // Decoded into an aligned buffer (a Float32Array needs 4-byte alignment).
    const data = new Float32Array(row.nx * row.ny)
    new Uint8Array(data.buffer).set(Buffer.from(row.data, 'base64').subarray(0, data.byteLength))
    const { nx, ny, west, south, east, north, version } = row
    return { id, hour, nx, ny, west, south, east, north, data, version }
  }

  /** The version of a grid (all hours share it), or undefined when not stored. */
  async version(id: string): Promise<string | undefined> {
    return (await this.db.one<{ version: string }>('SELECT version FROM grid_meta WHERE id = $1', [id]))
      ?.version
  }

  async list(): Promise<GridSummary[]> {
    const rows = await this.db.query<GridSummaryRow>(
      `SELECT m.id, m.hours, g.nx, g.ny, m.version, m.source, m.ref_time, m.valid_times
       FROM grid_meta m LEFT JOIN grids g ON g.id = m.id AND g.hour = 0 ORDER BY m.id COLLATE "C"`,
    )
    return rows.map(gridSummary)
  }

  async deleteGrid(id: string): Promise<void> {
    await this.db.tx(async () => {
      await this.db.run('DELETE FROM grids WHERE id = $1', [id])
      await this.db.run('DELETE FROM grid_meta WHERE id = $1', [id])
    })
  }
}
