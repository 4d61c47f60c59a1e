/**
 * The one grid import: `importGridFile(store, gridId, filePath, options) → ImportGridSummary`.
 * `npm run import-grid` (scripts/import-grid.ts) and the grid ingestion route
 * (`POST /api/ingest/grids/<id>`) both call it; keep its signature stable.
 *
 * Reads a GeoTIFF/COG in any CRS GDAL knows (an EPSG code or WKT), a NetCDF file (CF
 * conventions: the time dimension's values and `units` → valid times) or a GRIB2 file (NDFD,
 * HRRR: each message's GRIB_VALID_TIME / GRIB_REF_TIME), chooses the bands (one NetCDF variable,
 * one GRIB element and level), orders them by valid time, reprojects them with `gdalwarp` to the
 * grid's own longitude/latitude grid (the grid's `extent` and `resolution` when declared, else the
 * file's footprint; `bilinear` for continuous grids, `nearest` for class grids such as fuel
 * models) and replaces every hour of the grid in one transaction, recording the source (file name
 * or URL), the reference time and the valid times.
 *
 * Why GDAL's command-line tools (gdal-bin) and not the `geotiff`/`proj4` packages: they read all
 * three formats (GRIB2's packings incl. JPEG 2000, NetCDF-4/HDF5), know every CRS by EPSG code or
 * WKT (PROJ database, datum shifts) and resample correctly in C at CONUS size. One `gdalwarp`
 * decodes, reprojects, resamples and clips to the grid's own cells (Float32, two threads) and
 * writes raw Float32 (ENVI), which `readEnvi` maps without decoding or per-cell work.
 *
 * A file that cannot be used (not a raster, unknown CRS, no time axis where hours are needed,
 * several or a wrong variable/element, more time steps than the grid holds) throws a
 * `GridImportError` with a message meant for the person who sent it; nothing is replaced.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { ELEVATION_GRID, FUEL_MODEL_GRID } from '../fire/landscape'
import { fireConfig } from '../../shared/config'
import type { GridStorage } from '../store/AppStore'
import { gridCatalog, windowHours, type GridCatalog } from './gridCatalog'
import type { GridRaster } from './gridRaster'
import { netcdfReferenceTime } from './netcdfRefTime'
import { enviWarpArgs, readEnvi } from './readEnvi'
import { WIND_U_GRID, WIND_V_GRID } from './windGrid'

const run = promisify(execFile)

/** Geographic longitude/latitude CRSs whose cells are kept as they are when no target grid is given. */
const GEOGRAPHIC = new Set(['EPSG:4326', 'EPSG:4269', 'EPSG:4258', 'EPSG:4283'])

/** A file (or an option) the import cannot use; `parameter` names the option at fault, if one is. */
export class GridImportError extends Error {
  constructor(
    message: string,
    readonly parameter?: string,
  ) {
    super(message)
    this.name = 'GridImportError'
  }
}

export type GridResampling = 'bilinear' | 'nearest'

export interface ImportGridOptions {
  /** Recorded as the grid's source (a file name or URL); the file's base name by default. */
  readonly source?: string
  /** NetCDF: the variable to read (required when the file holds several). */
  readonly variable?: string
  /** GRIB2: the element (GRIB_ELEMENT, e.g. `WIND`, `GUST`, `RH`), optionally with its level as `WIND:10-HTGL`. */
  readonly element?: string
  /** Keep only valid times at or after this instant (then at most the grid's hours of them). */
  readonly from?: Date | string
  /** Reference (model run) time: overrides the file's (GRIB2 messages, NetCDF CF metadata); GeoTIFFs have none. */
  readonly refTime?: Date | string
  /** Overrides the grid's interpolation (bilinear for continuous fields, nearest for classes). */
  readonly resampling?: GridResampling
  /** Target extent [west, south, east, north] in degrees; the grid's declared extent, else the file's footprint. */
  readonly extent?: readonly [number, number, number, number]
  /** Target cell size in degrees; the grid's declared resolution, else about the file's own. */
  readonly resolution?: number
  /** The grid catalogue (tests pass their own); the compiled config by default. */
  readonly catalog?: GridCatalog
  /** Called as each phase ends (`inspect`, `warp`, `read`, `store`) with its wall seconds (benchmarks). */
  readonly onPhase?: (phase: GridImportPhase, seconds: number) => void
}

/** The phases of an import, in order: gdalinfo, gdalwarp (decode + reproject + clip), reading its output, the store write. */
export type GridImportPhase = 'inspect' | 'warp' | 'read' | 'store'

export interface ImportGridSummary {
  readonly grid: string
  readonly version: string
  readonly format: 'GeoTIFF' | 'NetCDF' | 'GRIB2'
  /** The file's CRS as GDAL names it (`EPSG:5070`, or the WKT's name). */
  readonly crs: string
  readonly source: string
  readonly variable: string | null
  /** The unit the file gives its values in (GRIB2 `GRIB_UNIT` without brackets, NetCDF `units`), null when it gives none. */
  readonly unit: string | null
  readonly resampling: GridResampling
  readonly hours: number
  readonly nx: number
  readonly ny: number
  readonly west: number
  readonly south: number
  readonly east: number
  readonly north: number
  /** The model run time (ISO 8601), null when the file does not say. */
  readonly refTime: string | null
  /** The valid time of each stored hour (ISO 8601); empty for a GeoTIFF without times. */
  readonly validTimes: readonly string[]
}

/** What a grid id may hold: the configured grids, the fire landscape's and the wind components. */
export interface ImportableGrid {
  readonly id: string
  readonly hours: number
  readonly interpolation: GridResampling
  readonly extent?: readonly [number, number, number, number]
  readonly resolution?: number
}

/** The grids `importGridFile` can fill (undefined for an unknown id). */
export function importableGrid(
  gridId: string,
  catalog: GridCatalog = gridCatalog(),
): ImportableGrid | undefined {
  const configured = catalog.grids.find((g) => g.id === gridId)
  if (configured) {
    const declared = configured as { extent?: readonly [number, number, number, number]; resolution?: number }
    return {
      id: configured.id,
      hours: configured.hours,
      interpolation: configured.interpolation,
      ...(declared.extent ? { extent: declared.extent } : {}),
      ...(declared.resolution ? { resolution: declared.resolution } : {}),
    }
  }
  const landscape = landscapeGrids().find((g) => g.id === gridId)
  if (landscape) return { id: gridId, hours: 1, interpolation: landscape.interpolation }
  if (gridId === WIND_U_GRID || gridId === WIND_V_GRID)
    return { id: gridId, hours: windowHours(catalog), interpolation: 'bilinear' }
  return undefined
}

/** Every grid id `importGridFile` accepts (for usage messages). */
export function importableGridIds(catalog: GridCatalog = gridCatalog()): string[] {
  return [...catalog.grids.map((g) => g.id), ...landscapeGrids().map((g) => g.id), WIND_U_GRID, WIND_V_GRID]
}

/**
 * The fire landscape's one-band grids (config/fire.yaml `landscape`): the fuel models (classes,
 * nearest), elevation and the four canopy grids (continuous, bilinear) — the demo's ids by default.
 */
function landscapeGrids(): { id: string; interpolation: GridResampling }[] {
  const { fuelGrid, elevationGrid, crown } = fireConfig.landscape
  const ids = [
    ...new Set([
      FUEL_MODEL_GRID,
      fuelGrid,
      ELEVATION_GRID,
      elevationGrid,
      crown.canopyCoverGrid,
      crown.canopyHeightGrid,
      crown.canopyBaseHeightGrid,
      crown.canopyBulkDensityGrid,
    ]),
  ]
  return ids.map((id) => ({
    id,
    interpolation: id === FUEL_MODEL_GRID || id === fuelGrid ? 'nearest' : 'bilinear',
  }))
}

/** `gdalinfo -json`'s answer, the parts read here. */
interface GdalInfo {
  driverShortName?: string
  size?: [number, number]
  coordinateSystem?: { wkt?: string }
  geoTransform?: number[]
  metadata?: Record<string, Record<string, string> | undefined>
  bands?: { band: number; metadata?: Record<string, Record<string, string> | undefined> }[]
}

/** One band chosen for import, with its valid time (ms since the epoch) when the file gives one. */
interface ChosenBand {
  band: number
  valid: number | null
  ref: number | null
}

const GDAL_ENV = {
  ...process.env,
  GDAL_PAM_ENABLED: 'NO',
  CPL_LOG: process.platform === 'win32' ? 'NUL' : '/dev/null',
}

async function gdal(tool: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run(tool, [...args], { env: GDAL_ENV, maxBuffer: 256 * 1024 * 1024 })
    return stdout
  } catch (err) {
    const e = err as { code?: unknown; stderr?: string; message?: string }
    if (e.code === 'ENOENT')
      throw new Error(`${tool} is not installed (GDAL's command-line tools, Debian package gdal-bin)`)
    const lines = (e.stderr ?? e.message ?? '')
      .split('\n')
      .map((l) => l.replace(/^ERROR \d+: /, '').trim())
      .filter((l) => l && !l.startsWith('Warning'))
    throw new GridImportError(lines.at(-1) ?? `${tool} failed`)
  }
}

const iso = (ms: number): string => new Date(ms).toISOString()

function instant(value: Date | string | undefined, parameter: string): number | null {
  if (value === undefined) return null
  const ms = value instanceof Date ? value.getTime() : Date.parse(value)
  if (!Number.isFinite(ms)) throw new GridImportError(`${parameter}: not a date and time`, parameter)
  return ms
}

/** The CRS's short name: `EPSG:<code>` when the WKT's outermost ID is EPSG, else its quoted name. */
function crsName(wkt: string): string {
  const id = /ID\["EPSG",(\d+)\]\s*\]\s*$/.exec(wkt) ?? /AUTHORITY\["EPSG","(\d+)"\]\]\s*$/.exec(wkt)
  if (id) return `EPSG:${id[1]}`
  return /^[A-Z]+\["([^"]*)"/.exec(wkt)?.[1] ?? 'WKT'
}

/** CF time units: `<unit> since <date>` → [milliseconds per unit, epoch]. */
function cfTimeUnits(units: string, calendar: string | undefined): [number, number] {
  const m = /^\s*(\w+)\s+since\s+(.+?)\s*$/i.exec(units)
  const perUnit: Record<string, number> = {
    second: 1e3,
    seconds: 1e3,
    sec: 1e3,
    secs: 1e3,
    s: 1e3,
    minute: 6e4,
    minutes: 6e4,
    min: 6e4,
    mins: 6e4,
    hour: 36e5,
    hours: 36e5,
    hr: 36e5,
    hrs: 36e5,
    h: 36e5,
    day: 864e5,
    days: 864e5,
    d: 864e5,
  }
  const scale = m ? perUnit[m[1]!.toLowerCase()] : undefined
  if (!m || !scale) throw new GridImportError(`the time axis has units '${units}', not '<unit> since <date>'`)
  if (calendar && !/^(standard|gregorian|proleptic_gregorian)$/i.test(calendar))
    throw new GridImportError(
      `the time axis uses the '${calendar}' calendar; only the standard calendar is read`,
    )
  // CF dates: '2026-11-27 12:00:00', '2026-11-27T12:00:00Z', '2026-11-27 12:00:00 UTC', '2026-11-27'.
  let text = m[2]!.replace(/\s+UTC$/i, '').replace(' ', 'T')
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(text)) text += 'T00:00:00'
  if (!/(Z|[+-]\d\d:?\d\d)$/.test(text)) text += 'Z'
  const epoch = Date.parse(
    text.replace(/^(\d{4})-(\d)-/, '$1-0$2-').replace(/^(\d{4}-\d\d)-(\d)T/, '$1-0$2T'),
  )
  if (!Number.isFinite(epoch))
    throw new GridImportError(`the time axis has units '${units}': unreadable date`)
  return [scale, epoch]
}

const bandMeta = (b: NonNullable<GdalInfo['bands']>[number]): Record<string, string> => b.metadata?.[''] ?? {}

/** NetCDF: the variable's subdataset and its bands with valid times from the CF time dimension. */
async function netcdfBands(
  file: string,
  info: GdalInfo,
  options: ImportGridOptions,
  needsHours: boolean,
): Promise<{ dataset: string; info: GdalInfo; variable: string; bands: ChosenBand[]; epoch: number | null }> {
  const subdatasets = Object.entries(info.metadata?.SUBDATASETS ?? {})
    .filter(([k]) => /_NAME$/.test(k))
    .map(([, v]) => ({ name: v, variable: /:([^:]+)$/.exec(v)?.[1] ?? v }))
  let dataset = file
  let chosen = info
  if (subdatasets.length > 0) {
    const names = subdatasets.map((s) => s.variable)
    const sub = options.variable
      ? subdatasets.find((s) => s.variable === options.variable)
      : subdatasets.length === 1
        ? subdatasets[0]
        : undefined
    if (!sub)
      throw new GridImportError(
        options.variable
          ? `the NetCDF file has no variable '${options.variable}' (variables: ${names.join(', ')})`
          : `the NetCDF file holds several variables (${names.join(', ')}); choose one with --variable`,
        'variable',
      )
    dataset = sub.name
    chosen = await gdalInfoWithMetadata(dataset)
  }
  const meta = chosen.metadata?.[''] ?? {}
  const bands = chosen.bands ?? []
  const variable = bands[0] ? (bandMeta(bands[0]).NETCDF_VARNAME ?? options.variable ?? '') : ''
  if (options.variable && variable && variable !== options.variable)
    throw new GridImportError(
      `the NetCDF file has no variable '${options.variable}' (variables: ${variable})`,
      'variable',
    )
  const extra = (meta.NETCDF_DIM_EXTRA ?? '').replace(/[{}]/g, '').split(',').filter(Boolean)
  const isTime = (d: string): boolean =>
    meta[`${d}#standard_name`] === 'time' ||
    meta[`${d}#axis`] === 'T' ||
    / since /i.test(meta[`${d}#units`] ?? '')
  const timeDim = extra.find(isTime)
  for (const d of extra) {
    if (d === timeDim) continue
    const count = new Set(bands.map((b) => bandMeta(b)[`NETCDF_DIM_${d}`])).size
    if (count > 1)
      throw new GridImportError(
        `variable '${variable}' has a '${d}' dimension of ${count} values besides time; only one level can be read`,
        'variable',
      )
  }
  if (!timeDim) {
    if (needsHours || bands.length > 1)
      throw new GridImportError(
        `variable '${variable}' has no time axis (no CF time dimension), so its forecast hours are unknown`,
        'variable',
      )
    return {
      dataset,
      info: chosen,
      variable,
      bands: bands.map((b) => ({ band: b.band, valid: null, ref: null })),
      epoch: null,
    }
  }
  const [scale, epoch] = cfTimeUnits(meta[`${timeDim}#units`] ?? '', meta[`${timeDim}#calendar`])
  return {
    dataset,
    info: chosen,
    variable,
    epoch,
    bands: bands.map((b) => {
      const value = Number(bandMeta(b)[`NETCDF_DIM_${timeDim}`])
      if (!Number.isFinite(value))
        throw new GridImportError(`band ${b.band} of '${variable}' has no value on the time axis`)
      return { band: b.band, valid: epoch + value * scale, ref: null }
    }),
  }
}

async function gdalInfoWithMetadata(source: string): Promise<GdalInfo> {
  const text = await gdal('gdalinfo', ['-json', '-norat', '-noct', source])
  return JSON.parse(text) as GdalInfo
}

/** GRIB2: the bands of one element and level, each with its valid and reference time. */
function gribBands(
  info: GdalInfo,
  options: ImportGridOptions,
): { element: string; unit: string | null; bands: ChosenBand[] } {
  const all = (info.bands ?? []).map((b) => {
    const m = bandMeta(b)
    const seconds = (v: string | undefined): number | null => {
      const n = Number.parseInt((v ?? '').trim(), 10)
      return Number.isFinite(n) ? n * 1000 : null
    }
    return {
      band: b.band,
      element: (m.GRIB_ELEMENT ?? '').trim(),
      level: (m.GRIB_SHORT_NAME ?? '').trim(),
      unit: (m.GRIB_UNIT ?? '').trim().replace(/^\[(.*)\]$/, '$1') || null,
      valid: seconds(m.GRIB_VALID_TIME),
      ref: seconds(m.GRIB_REF_TIME),
    }
  })
  const kinds = [...new Set(all.map((b) => `${b.element}:${b.level}`))]
  let chosen = all
  if (options.element) {
    const [element, level] = options.element.split(':')
    chosen = all.filter(
      (b) =>
        b.element.toUpperCase() === element!.toUpperCase() &&
        (!level || b.level.toUpperCase() === level.toUpperCase()),
    )
    if (chosen.length === 0)
      throw new GridImportError(
        `the GRIB2 file has no '${options.element}' messages (elements: ${kinds.join(', ')})`,
        'element',
      )
  }
  const chosenKinds = [...new Set(chosen.map((b) => `${b.element}:${b.level}`))]
  if (chosenKinds.length > 1)
    throw new GridImportError(
      `the GRIB2 file holds several fields (${chosenKinds.join(', ')}); choose one with --element ELEMENT[:LEVEL]`,
      'element',
    )
  const missing = chosen.find((b) => b.valid === null)
  if (missing) throw new GridImportError(`GRIB2 message ${missing.band} has no valid time`)
  return {
    element: chosenKinds[0] ?? '',
    unit: chosen[0]?.unit ?? null,
    bands: chosen.map(({ band, valid, ref }) => ({ band, valid, ref })),
  }
}

/**
 * Imports a raster file into a grid (see the file header). `store` is anything holding the grids
 * (an `AppStore`, or the CLI's opened grid storage); the file is only read. Throws
 * `GridImportError` for anything wrong with the file or the options; the stored grid is then
 * unchanged.
 */
export async function importGridFile(
  store: { readonly grids: GridStorage },
  gridId: string,
  filePath: string,
  options: ImportGridOptions = {},
): Promise<ImportGridSummary> {
  const grid = importableGrid(gridId, options.catalog)
  if (!grid)
    throw new GridImportError(
      `unknown grid '${gridId}' (grids: ${importableGridIds(options.catalog).join(', ')})`,
      'grid',
    )
  const from = instant(options.from, 'from')
  const refOption = instant(options.refTime, 'refTime')
  const extent = options.extent ?? grid.extent
  const resolution = options.resolution ?? grid.resolution
  if (extent) {
    const [w, s, e, n] = extent
    if (!(w < e && s < n && w >= -360 && e <= 360 && s >= -90 && n <= 90))
      throw new GridImportError(`extent ${extent.join(',')}: not west,south,east,north in degrees`, 'extent')
  }
  if (resolution !== undefined && !(resolution > 0 && resolution <= 10))
    throw new GridImportError(
      `resolution ${resolution}: not a cell size in degrees (0 < r ≤ 10)`,
      'resolution',
    )
  const resampling = options.resampling ?? grid.interpolation
  let phaseStart = performance.now()
  const phase = (name: GridImportPhase): void => {
    const now = performance.now()
    options.onPhase?.(name, (now - phaseStart) / 1000)
    phaseStart = now
  }

  const first = await gdalInfoWithMetadata(filePath).catch((err: unknown) => {
    if (err instanceof GridImportError)
      throw new GridImportError(`not a raster file GDAL can read (${err.message})`, 'file')
    throw err
  })
  const driver = first.driverShortName ?? ''
  const format: ImportGridSummary['format'] | undefined =
    driver === 'GTiff' || driver === 'COG'
      ? 'GeoTIFF'
      : driver === 'netCDF'
        ? 'NetCDF'
        : driver === 'GRIB'
          ? 'GRIB2'
          : undefined
  if (!format)
    throw new GridImportError(
      `a ${driver || 'unknown'} file; import-grid reads GeoTIFF/COG, NetCDF and GRIB2`,
      'file',
    )

  let dataset = filePath
  let info = first
  let variable: string | null = null
  let unit: string | null = null
  let bands: ChosenBand[]
  if (format === 'NetCDF') {
    const nc = await netcdfBands(filePath, first, options, grid.hours > 1)
    ;({ dataset, info, bands } = nc)
    variable = nc.variable || null
    unit = (info.bands?.[0] ? bandMeta(info.bands[0]).units : undefined) || null
    // The model run from the file's CF metadata (netcdfRefTime.ts), unless refTime overrides it.
    if (refOption === null) {
      const valid = bands.flatMap((b) => (b.valid === null ? [] : [b.valid]))
      const ref = await netcdfReferenceTime({
        file: filePath,
        variable: nc.variable,
        meta: info.metadata?.[''] ?? {},
        time: nc.epoch === null ? null : { epoch: nc.epoch, valid },
        gdal,
        cfTime: (units, value) => {
          const [scale, epoch] = cfTimeUnits(units, undefined)
          return epoch + value * scale
        },
      })
      if (ref) bands = bands.map((b) => ({ ...b, ref: ref.ms }))
    }
  } else if (format === 'GRIB2') {
    const grib = gribBands(first, options)
    bands = grib.bands
    variable = grib.element
    unit = grib.unit
  } else {
    bands = (first.bands ?? []).map((b) => ({ band: b.band, valid: null, ref: null }))
  }
  if (bands.length === 0) throw new GridImportError('the file holds no raster bands', 'file')

  const wkt = info.coordinateSystem?.wkt ?? ''
  if (!wkt.trim())
    throw new GridImportError(
      'the file has no coordinate reference system (no EPSG code or WKT); assign one, e.g. gdal_edit -a_srs EPSG:5070 file.tif',
      'file',
    )
  if (!info.geoTransform)
    throw new GridImportError('the file has no georeferencing (no geotransform)', 'file')

  // Order by valid time, keep those at or after `from`, at most the grid's hours.
  if (bands.every((b) => b.valid !== null)) {
    bands.sort((a, b) => a.valid! - b.valid!)
    const dup = bands.find((b, k) => k > 0 && b.valid === bands[k - 1]!.valid)
    if (dup)
      throw new GridImportError(
        `two bands are valid at ${iso(dup.valid!)}; choose one field (--variable or --element)`,
        format === 'GRIB2' ? 'element' : 'variable',
      )
    if (from !== null) {
      bands = bands.filter((b) => b.valid! >= from).slice(0, grid.hours)
      if (bands.length === 0) throw new GridImportError(`no valid time at or after ${iso(from)}`, 'from')
    }
  }
  if (bands.length > grid.hours)
    throw new GridImportError(
      `the file has ${bands.length} ${bands[0]!.valid !== null ? 'valid times' : 'bands'}; grid ${gridId} holds ${grid.hours} hour(s)` +
        (bands[0]!.valid !== null ? ' (choose the first with --from)' : ''),
      'file',
    )

  phase('inspect')
  const work = await mkdtemp(path.join(tmpdir(), 'emberline-grid-'))
  try {
    // Choose the bands (in valid-time order) in a VRT, then warp to the grid's lon/lat grid.
    // (All bands in their own order — a GeoTIFF, most NetCDF and GRIB2 files — need no VRT.)
    const inOrder = bands.length === (info.bands ?? []).length && bands.every((b, k) => b.band === k + 1)
    const vrt = inOrder ? dataset : path.join(work, 'bands.vrt')
    if (!inOrder)
      await gdal('gdal_translate', [
        '-q',
        '-of',
        'VRT',
        ...bands.flatMap((b) => ['-b', String(b.band)]),
        dataset,
        vrt,
      ])
    // Raw Float32 band after band (ENVI), read back as views: no TIFF decoding, no per-cell work.
    const out = path.join(work, 'grid.bil')
    const target: string[] = []
    if (extent) {
      const [w, s, e, n] = extent
      target.push('-te', String(w), String(s), String(e), String(n))
      if (resolution)
        target.push(
          '-ts',
          String(Math.max(1, Math.round((e - w) / resolution))),
          String(Math.max(1, Math.round((n - s) / resolution))),
        )
    } else if (resolution) target.push('-tr', String(resolution), String(resolution), '-tap')
    else {
      // Already longitude/latitude (no rotation): keep the file's own cells exactly.
      const t = info.geoTransform
      const [sx, sy] = info.size ?? [0, 0]
      if (GEOGRAPHIC.has(crsName(wkt)) && t.length === 6 && t[2] === 0 && t[4] === 0 && sx > 0 && sy > 0) {
        const [x0, dx, , y0, , dy] = t as [number, number, number, number, number, number]
        const xs = [x0, x0 + dx * sx]
        const ys = [y0, y0 + dy * sy]
        target.push(
          '-te',
          String(Math.min(...xs)),
          String(Math.min(...ys)),
          String(Math.max(...xs)),
          String(Math.max(...ys)),
          '-ts',
          String(sx),
          String(sy),
        )
      }
    }
    await gdal('gdalwarp', enviWarpArgs(resampling === 'nearest' ? 'near' : 'bilinear', target, vrt, out))
    phase('warp')
    const rasters: GridRaster[] = readEnvi(
      await readFile(path.join(work, 'grid.hdr'), 'utf8'),
      await readFile(out),
    )
    if (rasters.length !== bands.length)
      throw new GridImportError(`reprojection gave ${rasters.length} bands for ${bands.length}`)
    phase('read')
    const source = options.source ?? path.basename(filePath)
    const validTimes = bands.every((b) => b.valid !== null) ? bands.map((b) => iso(b.valid!)) : []
    const refs = bands.map((b) => b.ref).filter((r): r is number => r !== null && r > 0)
    const refTime = refOption !== null ? iso(refOption) : refs.length > 0 ? iso(Math.max(...refs)) : null
    const version = await store.grids.replaceGrid(gridId, rasters, source, { refTime, validTimes })
    phase('store')
    const g = rasters[0]!
    return {
      grid: gridId,
      version,
      format,
      crs: crsName(wkt),
      source,
      variable,
      unit,
      resampling,
      hours: rasters.length,
      nx: g.nx,
      ny: g.ny,
      west: g.west,
      south: g.south,
      east: g.east,
      north: g.north,
      refTime,
      validTimes,
    }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
