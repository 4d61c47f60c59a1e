/** Where a NetCDF file's reference time (the model run) was found. */
export type NetcdfRefTimeSource =
  'forecast_reference_time variable' | 'reference_time attribute' | 'time units'

export interface NetcdfRefTime {
  /** The reference time, ms since the epoch. */
  ms: number
  from: NetcdfRefTimeSource
  /** The variable or attribute it was read from (`time#units` for the time axis). */
  name: string
}

export interface NetcdfRefTimeInput {
  /** The NetCDF file itself (not a subdataset). */
  file: string
  /** The variable being imported (its `coordinates` attribute is preferred when it names one). */
  variable: string
  /** gdalinfo's default metadata domain of the variable's subdataset (`<var>#<attr>`, `NC_GLOBAL#<attr>`). */
  meta: Readonly<Record<string, string>>
  /** The time axis: the epoch of its `<unit> since <date>` (ms) and the bands' valid times (ms), or null. */
  time: { epoch: number; valid: readonly number[] } | null
  /** Runs a GDAL command-line tool, resolving with its standard output. */
  gdal: (tool: string, args: readonly string[]) => Promise<string>
  /** A CF time value in `units` (`hours since …`) as ms since the epoch (throws when unreadable). */
  cfTime: (units: string, value: number) => number
}

/** The longest forecast whose time axis is taken as counted from its run (NOAA's GFS: 16 days). */
const MAX_LEAD_MS = 16 * 24 * 3600 * 1000

const REF_NAMES = ['forecast_reference_time', 'reference_time']

/** A CF or ISO 8601 date-time text ('2026-11-27 12:00:00', '2026-11-27T12:00Z', …), ms or null. */
export function dateText(text: string): number | null {
  let t = text.trim().replace(/\s+UTC$/i, '')
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(t)) t += 'T00:00:00'
  t = t.replace(/^(\d{4}-\d{1,2}-\d{1,2})\s+/, '$1T')
  if (!/^\d{4}-\d{1,2}-\d{1,2}T\d{1,2}:\d{2}/.test(t)) return null
  if (!/(Z|[+-]\d\d:?\d\d)$/i.test(t)) t += 'Z'
  const ms = Date.parse(t)
  return Number.isFinite(ms) ? ms : null
}

interface MdimArray {
  dimension_size?: number[]
  unit?: string
  attributes?: Record<string, unknown>
}

/** The value of an attribute in gdalmdiminfo's JSON (plain or `{datatype, value}` when -detailed). */
const attr = (a: MdimArray | undefined, name: string): unknown => {
  const v = a?.attributes?.[name]
  return v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v
}

/**
 * CF: a scalar (or one-value) variable with `standard_name: forecast_reference_time`, or named
 * `forecast_reference_time`/`reference_time`, read with GDAL's multidimensional tool
 * (`gdalmdiminfo -detailed -limit 1`: every variable with at most one value per dimension, so a
 * large field costs nothing). The variable named in the data variable's `coordinates` comes first.
 */
async function fromVariable(input: NetcdfRefTimeInput): Promise<NetcdfRefTime | null> {
  let root: { arrays?: Record<string, MdimArray & { values?: unknown }> }
  try {
    root = JSON.parse(
      await input.gdal('gdalmdiminfo', ['-detailed', '-limit', '1', input.file]),
    ) as typeof root
  } catch {
    return null
  }
  const arrays = root.arrays ?? {}
  const coordinates = String(attr(arrays[input.variable], 'coordinates') ?? '').split(/\s+/)
  const candidates = Object.entries(arrays)
    .filter(([name, a]) => attr(a, 'standard_name') === 'forecast_reference_time' || REF_NAMES.includes(name))
    .filter(([, a]) => (a.dimension_size ?? []).reduce((n, size) => n * size, 1) === 1)
    .sort(([a], [b]) => Number(coordinates.includes(b)) - Number(coordinates.includes(a)))
  for (const [name, a] of candidates) {
    const raw = Array.isArray(a.values) ? (a.values[0] as unknown) : a.values
    const units = a.unit ?? String(attr(a, 'units') ?? '')
    let ms: number | null = null
    if (typeof raw === 'number' && Number.isFinite(raw) && units) {
      try {
        ms = input.cfTime(units, raw)
      } catch {
        ms = null
      }
    } else if (typeof raw === 'string') ms = dateText(raw)
    if (ms !== null) return { ms, from: 'forecast_reference_time variable', name }
  }
  return null
}

/** An attribute of the variable or of the file holding a date: `reference_time`, `forecast_reference_time`. */
function fromAttribute(input: NetcdfRefTimeInput): NetcdfRefTime | null {
  for (const owner of [input.variable, 'NC_GLOBAL'])
    for (const name of REF_NAMES) {
      const text = input.meta[`${owner}#${name}`]
      const ms = text === undefined ? null : dateText(text)
      if (ms !== null) return { ms, from: 'reference_time attribute', name: `${owner}#${name}` }
    }
  return null
}

/**
 * The time axis counts from the run when every valid time lies 0 to 16 days after its epoch
 * (`hours since 2026-11-27 12:00` with values 0, 1, 2 …); an axis from 1970 or any other fixed
 * epoch tells nothing about the run.
 */
function fromTimeUnits(input: NetcdfRefTimeInput): NetcdfRefTime | null {
  const t = input.time
  if (!t || t.valid.length === 0) return null
  const leads = t.valid.map((v) => v - t.epoch)
  if (leads.every((l) => l >= 0 && l <= MAX_LEAD_MS))
    return { ms: t.epoch, from: 'time units', name: 'time#units' }
  return null
}

/**
 * A CF NetCDF file's reference time (the model run its forecast hours count from), from the file:
 * the `forecast_reference_time` variable, else a `reference_time`/`forecast_reference_time`
 * attribute of the variable or the file, else the epoch of the time axis's units when the axis
 * counts forecast hours from it. Null when the file says nothing (an `--ref-time` then decides).
 */
export async function netcdfReferenceTime(input: NetcdfRefTimeInput): Promise<NetcdfRefTime | null> {
  return (await fromVariable(input)) ?? fromAttribute(input) ?? fromTimeUnits(input)
}
