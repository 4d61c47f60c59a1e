// `npm run fire -- grid …`: FlamMap's basic fire behaviour outputs for every cell of a LANDFIRE
// landscape, written as GeoTIFFs on the input grid (docs/fire.md).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { FT_PER_MIN_PER_CH_PER_H } from '../../src/fire'
import { FIRE_TYPE_NODATA, fireBehaviourGrid, type FireBehaviourGrid } from '../../src/fire/fireBehaviourGrid'
import {
  LANDSCAPE_OPTIONS,
  numberIn,
  readLandscape,
  readWeatherBase,
  required,
  type OptionValues,
} from './landscapeArgs'
import { UsageError } from './cliArgs'
import { writeGeoTiff, type RasterGrid } from './rasterIo'

export const GRID_USAGE = `usage: npm run fire -- grid --fuel <GeoTIFF> --fuel-models fbfm40|fbfm13
    --slope <GeoTIFF> --slope-units percent|degrees --aspect <GeoTIFF>
    [--canopy-cover <GeoTIFF, %> --canopy-height <GeoTIFF, 0.1 m>
     --canopy-base-height <GeoTIFF, 0.1 m> --canopy-bulk-density <GeoTIFF, 0.01 kg/m3>]
    --moisture <1h,10h,100h,herb,woody in %> [--foliar-moisture <%, default 100>]
    --wind <mph> --wind-from <degrees the wind blows from> --wind-height 20ft|midflame
    [--wind-speed-limit] --out <directory>`

/** The output files and what each holds. */
export const GRID_OUTPUTS = [
  'ros_ch_h.tif',
  'flame_length_ft.tif',
  'fireline_intensity_btu_ft_s.tif',
  'fire_type.tif',
  'max_spread_dir_deg.tif',
] as const

export const OUTPUT_NODATA = -9999

export function parseOptions(
  args: readonly string[],
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>,
): OptionValues {
  // A negative number after an option is its value (a western longitude: --ignition -106.5,35.1).
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    const next = args[i + 1]
    if (a.startsWith('--') && !a.includes('=') && next !== undefined && /^-[\d.]/.test(next)) {
      joined.push(`${a}=${next}`)
      i++
    } else joined.push(a)
  }
  try {
    return parseArgs({ args: joined, options, strict: true, allowPositionals: false }).values as OptionValues
  } catch (err) {
    throw new UsageError(
      err instanceof Error ? err.message.replace(/\. To specify a positional.*$/s, '') : String(err),
    )
  }
}

/** Writes the five outputs of `fire` on `grid` (with the input's GeoTIFF tags, or else CRS `wkt`) into `dir`. */
export async function writeGridOutputs(
  dir: string,
  grid: RasterGrid,
  wkt: string | undefined,
  fire: FireBehaviourGrid,
): Promise<void> {
  const ros = new Float32Array(fire.rosFtPerMin.length)
  for (let i = 0; i < ros.length; i++) ros[i] = fire.rosFtPerMin[i]! / FT_PER_MIN_PER_CH_PER_H
  await Promise.all([
    writeGeoTiff(join(dir, 'ros_ch_h.tif'), grid, wkt, ros, 'Float32', OUTPUT_NODATA),
    writeGeoTiff(join(dir, 'flame_length_ft.tif'), grid, wkt, fire.flameLengthFt, 'Float32', OUTPUT_NODATA),
    writeGeoTiff(
      join(dir, 'fireline_intensity_btu_ft_s.tif'),
      grid,
      wkt,
      fire.firelineIntensityBtuPerFtPerS,
      'Float32',
      OUTPUT_NODATA,
    ),
    writeGeoTiff(join(dir, 'fire_type.tif'), grid, wkt, fire.fireType, 'Byte', FIRE_TYPE_NODATA),
    writeGeoTiff(
      join(dir, 'max_spread_dir_deg.tif'),
      grid,
      wkt,
      fire.maxSpreadDirDeg,
      'Float32',
      OUTPUT_NODATA,
    ),
  ])
}

/** Runs `grid`; answers the summary line to print. */
export async function runGrid(args: readonly string[]): Promise<string> {
  const values = parseOptions(args, LANDSCAPE_OPTIONS)
  const out = required(values, 'out')
  const windSpeedMph = numberIn(required(values, 'wind'), 'wind', 0, 200, 'a wind speed in mph')
  const windFromDeg = numberIn(required(values, 'wind-from'), 'wind-from', 0, 360, 'a direction in degrees')
  const input = await readLandscape(values, { crs: false })
  const weather = { ...readWeatherBase(values, input.landscape), windSpeedMph, windFromDeg }
  const started = performance.now()
  const fire = fireBehaviourGrid(input.landscape, weather)
  const computeMs = performance.now() - started
  await mkdir(out, { recursive: true })
  await writeGridOutputs(out, input.grid, input.wkt, fire)
  const counts = [0, 0, 0, 0]
  for (const t of fire.fireType) if (t < 4) counts[t]! += 1
  return (
    `fire grid: ${input.landscape.width} × ${input.landscape.height} cells in ${computeMs.toFixed(0)} ms; ` +
    `unburnable ${counts[0]}, surface ${counts[1]}, passive crown ${counts[2]}, active crown ${counts[3]}; ` +
    `wrote ${GRID_OUTPUTS.join(', ')} to ${out}`
  )
}
