/**
 * Grid feeds (config/feeds.yaml `gridFeeds`, docs/grids.md): a weather model's file downloaded on
 * its run cadence and imported into a grid through `importGridFile` (reprojection, element or
 * variable choice, valid and reference times). The newest run whose file is published is used:
 * the URL template names the run (`${RUN_YYYYMMDD}`, `${RUN_HH}` …) and a 404 for the newest run
 * falls back to the previous one(s). A download that is not the declared format, is cut off or
 * holds the wrong field fails the run and leaves the stored grid as it was; the failure is shown
 * in the feed's freshness like a vector feed's.
 */
import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FeedsConfig, FeedUnit, GridFeedDefinition, GridFeedSource } from '../../shared/config'
import { importableGrid, importGridFile, type ImportGridSummary } from '../grids/importGridFile'
import type { GridRaster } from '../grids/gridRaster'
import { WIND_U_GRID, WIND_V_GRID } from '../grids/windGrid'
import type { AppStore } from '../store/AppStore'
import type { GridStorage, GridTimes } from '../store/gridStore'
import { downloadFeed } from './downloadFeed'
import { fillPlaceholders } from './feedSource'
import type { RunSummary } from './feedTypes'
import { convertUnit, unitOf } from './units'

const HOUR = 3_600_000
const DEFAULTS = { timeoutSeconds: 30, maxBytes: 50_000_000, retries: 2, backoffSeconds: 5 }
const RUN_PLACEHOLDER = /\$\{RUN_(YYYYMMDD|YYYY|MM|DD|HH)\}/

/** What a grid feed run did, kept as the feed's summary (GET /api/feeds) beside the vector counts. */
export interface GridFeedRunInfo {
  /** The grids written (one, or wind_u and wind_v). */
  readonly grids: readonly string[]
  /** The model run the file came from (from the URL's run placeholders), null when the URL names none. */
  readonly run: string | null
  /** The reference time recorded (the file's, else the run), the valid times stored. */
  readonly refTime: string | null
  readonly validTimes: readonly string[]
  readonly hours: number
  readonly nx: number
  readonly ny: number
  readonly format: ImportGridSummary['format']
  readonly variable: string | null
  /** Runs tried before the one used, newest first, with why they were skipped. */
  readonly skipped: readonly string[]
}

/** A grid feed run's summary: the vector feeds' counts (hours as records) plus `grid`. */
export type GridRunSummary = RunSummary & { grid: GridFeedRunInfo }

export type GridRunResult =
  { ok: true; changed: boolean; summary: GridRunSummary } | { ok: false; error: string; summary: null }

export interface GridRunOptions {
  /** Read this file instead of the configured source (`npm run feed -- <id> --file`); grid: wind: the speed file. */
  file?: string
  /** grid: wind with `file`: the direction file. */
  directionFile?: string
  env?: NodeJS.ProcessEnv
  /** Send the validators of the last good download when the same run is tried again (the poller does). */
  conditional?: boolean
  sleep?: (ms: number) => Promise<void>
}

export interface GridRunContext {
  store: Pick<AppStore, 'grids' | 'feeds'>
  config: FeedsConfig
  /** The run clock (ms): which model runs are due, and the first valid time kept (its hour). */
  now: number
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** The run placeholders of one model run (UTC). */
export function runPlaceholders(run: number): Record<string, string> {
  const d = new Date(run)
  const yyyy = String(d.getUTCFullYear())
  const mm = pad(d.getUTCMonth() + 1)
  const dd = pad(d.getUTCDate())
  return {
    RUN_YYYY: yyyy,
    RUN_MM: mm,
    RUN_DD: dd,
    RUN_HH: pad(d.getUTCHours()),
    RUN_YYYYMMDD: `${yyyy}${mm}${dd}`,
  }
}

/**
 * The model runs to try, newest first: the latest run start (a multiple of `everyHours` from
 * 00 UTC) at least `lagMinutes` before `now`, then `fallbackRuns` earlier ones; `[null]` when the
 * feed's URL does not name the run (the file at the URL is always the newest).
 */
export function candidateRuns(feed: GridFeedDefinition, now: number): (number | null)[] {
  const urls = [feed.source.url, feed.direction?.url].filter((u): u is string => u !== undefined)
  if (!feed.run || !urls.some((u) => RUN_PLACEHOLDER.test(u))) return [null]
  const every = feed.run.everyHours * HOUR
  const newest = Math.floor((now - (feed.run.lagMinutes ?? 0) * 60_000) / every) * every
  return Array.from({ length: 1 + (feed.run.fallbackRuns ?? 1) }, (_, k) => newest - k * every)
}

/** The format a file's first bytes announce (GRIB2, NetCDF classic or NetCDF-4/HDF5, TIFF). */
export function sniffGridFormat(bytes: Uint8Array): GridFeedDefinition['format'] | null {
  const head = Buffer.from(bytes.subarray(0, 8))
  if (head.subarray(0, 4).toString('latin1') === 'GRIB') return 'grib2'
  if (
    head.subarray(0, 3).toString('latin1') === 'CDF' ||
    head.subarray(0, 8).toString('latin1') === '\x89HDF\r\n\x1a\n'
  )
    return 'netcdf'
  const tiff = head.subarray(0, 4).toString('latin1')
  if (tiff === 'II*\0' || tiff === 'MM\0*' || tiff === 'II+\0' || tiff === 'MM\0+') return 'geotiff'
  return null
}

const FORMAT_NAME: Record<GridFeedDefinition['format'], string> = {
  grib2: 'GRIB2',
  netcdf: 'NetCDF',
  geotiff: 'GeoTIFF',
}

function describeStart(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'it is empty'
  const text = Buffer.from(bytes.subarray(0, 24))
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '.')
    .trim()
  return `it starts with '${text}'`
}

/** Not a file of the feed's format: a clear reason (an HTML error page, an empty body …). */
function checkFormat(feed: GridFeedDefinition, bytes: Uint8Array, what: string): void {
  const got = sniffGridFormat(bytes)
  if (got !== feed.format)
    throw new Error(
      `${what} is not ${FORMAT_NAME[feed.format]}: ${got ? `a ${FORMAT_NAME[got]} file` : describeStart(bytes)}`,
    )
}

/** The value conversion `units` asks for, as v → a + b·v (every unit we convert is affine). */
function affine(units: GridFeedDefinition['units']): ((v: number) => number) | null {
  if (!units?.from || units.from === units.to) return null
  const from = units.from as FeedUnit
  const to = units.to as FeedUnit
  const a = convertUnit(0, from, to)
  const b = convertUnit(1, from, to) - a
  return (v) => a + b * v
}

function mapRaster(r: GridRaster, f: (v: number) => number): GridRaster {
  const data = new Float32Array(r.data.length)
  for (let k = 0; k < data.length; k++) data[k] = f(r.data[k]!)
  return { ...r, data }
}

/**
 * Refuses a file whose values are in another unit than the feed converts from (`units.from`): GDAL
 * reports GRIB2's `GRIB_UNIT` (NDFD wind: m/s) and NetCDF's `units`. A unit we do not know, or a
 * file that names none, is taken as declared.
 */
function checkUnit(feed: GridFeedDefinition, unit: string | null): void {
  const from = feed.units?.from
  const got = unit === null ? undefined : unitOf(unit)
  if (from && got && got !== from)
    throw new Error(`the file's values are in ${unit}, but the feed converts from ${from} (units.from)`)
}

/** What importGridFile would have stored: captured instead, so the feed decides what is written. */
interface Captured {
  rasters: readonly GridRaster[]
  times: GridTimes
  summary: ImportGridSummary
}

/** Runs importGridFile on a file into a capturing store: every check of the import, nothing written. */
async function readGrid(
  gridId: string,
  file: string,
  src: GridFeedSource,
  source: string,
  now: number,
  refTime: number | null,
  territory: readonly number[],
  resampling?: 'nearest',
): Promise<Captured> {
  // Clipped to the grid's declared extent, else the territory box (a CONUS file is not stored whole).
  const [w, s, e, n] = territory as [number, number, number, number]
  const extent = importableGrid(gridId)?.extent ?? ([w, s, e, n] as const)
  let captured: { rasters: readonly GridRaster[]; times: GridTimes } | null = null
  const capture = {
    replaceGrid(_id: string, rasters: readonly GridRaster[], _source: string, times?: GridTimes) {
      captured = { rasters, times: times ?? { refTime: null, validTimes: [] } }
      return 'captured'
    },
  } as Pick<GridStorage, 'replaceGrid'> as GridStorage
  const summary = await importGridFile({ grids: capture }, gridId, file, {
    source,
    extent,
    // The hours from the run clock's hour on: a forecast's past hours are not kept.
    from: new Date(Math.floor(now / HOUR) * HOUR),
    ...(src.element ? { element: src.element } : {}),
    ...(src.variable ? { variable: src.variable } : {}),
    ...(refTime !== null ? { refTime: new Date(refTime) } : {}),
    ...(resampling ? { resampling } : {}),
  })
  if (!captured) throw new Error(`${gridId}: the import stored nothing`)
  const got: { rasters: readonly GridRaster[]; times: GridTimes } = captured
  return { ...got, summary }
}

/** Speed (mph) and the direction it blows from (degrees) → the u (east) and v (north) components. */
export function windComponents(speed: GridRaster, fromDeg: GridRaster): [GridRaster, GridRaster] {
  const u = new Float32Array(speed.data.length)
  const v = new Float32Array(speed.data.length)
  for (let k = 0; k < u.length; k++) {
    const s = speed.data[k]!
    const d = (fromDeg.data[k]! * Math.PI) / 180
    u[k] = -s * Math.sin(d)
    v[k] = -s * Math.cos(d)
  }
  return [
    { ...speed, data: u },
    { ...speed, data: v },
  ]
}

function sameTimes(a: GridTimes, b: GridTimes): boolean {
  return a.validTimes.length === b.validTimes.length && a.validTimes.every((t, k) => t === b.validTimes[k])
}

class NotPublished extends Error {}

/**
 * Runs one grid feed once (see the file header). Never throws for content or network trouble: a
 * failure is recorded in the feed's freshness and the stored grid stays as it was.
 */
export async function runGridFeed(
  ctx: GridRunContext,
  feed: GridFeedDefinition,
  opts: GridRunOptions = {},
): Promise<GridRunResult> {
  const feeds = ctx.store.feeds
  const at = new Date(ctx.now).toISOString()
  const d = { ...DEFAULTS, ...ctx.config.defaults }
  const wind = feed.grid === 'wind'
  const box = ctx.config.territory.bbox
  const targetGrid = wind ? WIND_U_GRID : feed.grid
  // Recorded and shown: the template (placeholders, never their values) or the file.
  const source = opts.file ?? feed.source.file ?? feed.source.url ?? ''
  const work = await mkdtemp(path.join(tmpdir(), 'emberline-gridfeed-'))
  try {
    const last = opts.conditional ? await feeds.status(feed.id) : null
    const lastRun = (last?.summary as Partial<GridRunSummary> | null)?.grid?.run
    const env = opts.env ?? process.env
    const skipped: string[] = []

    /** One source of one run: a local file as it is, or the URL downloaded into the work directory. */
    const fetchOne = async (
      src: GridFeedSource,
      file: string | undefined,
      name: string,
      run: number | null,
      validators: { etag?: string | null; lastModified?: string | null },
    ): Promise<{ file: string; etag: string | null; lastModified: string | null } | 'not-modified'> => {
      const local = file ?? src.file
      if (local !== undefined) {
        const size = (await stat(local)).size
        const max = feed.maxBytes ?? d.maxBytes
        if (size > max) throw new Error(`${local} has ${size} bytes, over the limit of ${max}`)
        const handle = await open(local)
        // The first bytes: enough to tell the format, and to show what came instead.
        const head = Buffer.alloc(24)
        try {
          await handle.read(head, 0, 24, 0)
        } finally {
          await handle.close()
        }
        checkFormat(feed, head.subarray(0, Math.min(24, size)), local)
        return { file: local, etag: null, lastModified: null }
      }
      const extra = run === null ? {} : runPlaceholders(run)
      const url = fillPlaceholders(src.url ?? '', env, ctx.config.territory.bbox, ctx.now, true, extra)
      const headers: Record<string, string> = { 'User-Agent': d.userAgent ?? 'Emberline', Accept: '*/*' }
      for (const [k, v] of Object.entries(src.headers ?? {}))
        headers[k] = fillPlaceholders(v, env, null, ctx.now, false, extra)
      let got
      try {
        got = await downloadFeed(url, {
          timeoutMs: (feed.timeoutSeconds ?? d.timeoutSeconds) * 1000,
          maxBytes: feed.maxBytes ?? d.maxBytes,
          headers,
          etag: validators.etag,
          lastModified: validators.lastModified,
          retries: d.retries,
          backoffMs: d.backoffSeconds * 1000,
          sleep: opts.sleep,
          binary: true,
        })
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e)
        if (/^HTTP 404\b/.test(msg)) throw new NotPublished(msg)
        throw e
      }
      if (got.status === 'not-modified') return 'not-modified'
      const bytes = got.bytes ?? Buffer.alloc(0)
      checkFormat(feed, bytes, 'the download')
      const out = path.join(work, name)
      await writeFile(out, bytes)
      return { file: out, etag: got.etag, lastModified: got.lastModified }
    }

    for (const run of opts.file !== undefined ? [null] : candidateRuns(feed, ctx.now)) {
      const runLabel = run === null ? null : new Date(run).toISOString()
      // A GRIB2 message carries its own reference time; NetCDF and GeoTIFF get the run's.
      const runRef = feed.format === 'grib2' ? null : run
      try {
        const sameRun = runLabel === (lastRun ?? null)
        const speed = await fetchOne(
          feed.source,
          opts.file,
          'speed',
          run,
          sameRun && last ? { etag: last.etag, lastModified: last.lastModified } : {},
        )
        if (speed === 'not-modified') {
          await feeds.saveNotModified(feed.id, targetGrid, at)
          const prev = last?.summary as GridRunSummary
          return { ok: true, changed: false, summary: { ...prev, notModified: true } }
        }
        let rasters: Map<string, readonly GridRaster[]>
        let times: GridTimes
        let summary: ImportGridSummary
        const convert = affine(feed.units)
        if (wind) {
          if (!feed.direction) throw new Error(`grid feed ${feed.id}: grid wind needs 'direction'`)
          const dir = await fetchOne(feed.direction, opts.directionFile, 'direction', run, {})
          if (dir === 'not-modified') throw new Error('the direction source answered 304 to a plain GET')
          const s = await readGrid(WIND_U_GRID, speed.file, feed.source, source, ctx.now, runRef, box)
          checkUnit(feed, s.summary.unit)
          const w = await readGrid(
            WIND_V_GRID,
            dir.file,
            feed.direction,
            source,
            ctx.now,
            runRef,
            box,
            'nearest',
          )
          if (!sameTimes(s.times, w.times))
            throw new Error(
              `the direction file's valid times (${w.times.validTimes.join(', ') || 'none'}) are not the speed's (${s.times.validTimes.join(', ') || 'none'})`,
            )
          const a = s.rasters[0]!
          const b = w.rasters[0]!
          if (a.nx !== b.nx || a.ny !== b.ny)
            throw new Error(`the direction grid is ${b.nx}×${b.ny}, the speed grid ${a.nx}×${a.ny}`)
          const us: GridRaster[] = []
          const vs: GridRaster[] = []
          s.rasters.forEach((r, k) => {
            const [u, v] = windComponents(convert ? mapRaster(r, convert) : r, w.rasters[k]!)
            us.push(u)
            vs.push(v)
          })
          rasters = new Map([
            [WIND_U_GRID, us],
            [WIND_V_GRID, vs],
          ])
          times = s.times
          summary = s.summary
        } else {
          const g = await readGrid(feed.grid, speed.file, feed.source, source, ctx.now, runRef, box)
          checkUnit(feed, g.summary.unit)
          rasters = new Map([[feed.grid, convert ? g.rasters.map((r) => mapRaster(r, convert)) : g.rasters]])
          times = g.times
          summary = g.summary
        }
        // One transaction for all (wind_u and wind_v): no reader sees a new u with an old v.
        await ctx.store.grids.replaceGrids([...rasters].map(([id, hours]) => ({ id, hours, source, times })))
        const hours = times.validTimes.length || summary.hours
        const info: GridFeedRunInfo = {
          grids: [...rasters.keys()],
          run: runLabel,
          refTime: times.refTime,
          validTimes: times.validTimes,
          hours,
          nx: summary.nx,
          ny: summary.ny,
          format: summary.format,
          variable: summary.variable,
          skipped,
        }
        const out: GridRunSummary = {
          feed: feed.id,
          dataset: targetGrid,
          read: hours,
          kept: hours,
          outsideTerritory: 0,
          filteredOut: 0,
          expired: 0,
          duplicates: 0,
          withoutGeometry: 0,
          rejected: 0,
          rejections: [],
          stored: hours,
          // The badge's "newest data": the model run the forecast is from.
          newest: times.refTime ?? runLabel ?? times.validTimes[0] ?? null,
          notModified: false,
          grid: info,
        }
        await feeds.saveRun(feed.id, targetGrid, [], [], {
          source,
          at,
          summary: out,
          etag: speed.etag,
          lastModified: speed.lastModified,
        })
        return { ok: true, changed: true, summary: out }
      } catch (e) {
        if (!(e instanceof NotPublished)) throw e
        skipped.push(`${runLabel ?? 'latest'}: ${e.message}`)
      }
    }
    throw new Error(`no run published yet (${skipped.join('; ')})`)
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e)
    await feeds.saveFailure(feed.id, targetGrid, source, at, error, null)
    return { ok: false, error, summary: null }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
