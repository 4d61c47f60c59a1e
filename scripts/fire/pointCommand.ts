// `npm run fire -- point …`: surface fire behaviour at one point from the command line (docs/fire.md).
import { parseArgs } from 'node:util'
import { UsageError, numberIn, oneOf, parseMoisture, required } from './cliArgs'
import {
  FT_PER_MIN_PER_CH_PER_H,
  findFuelModel,
  slopePercentFromDeg,
  surfaceFire,
  type SurfaceFireInputs,
} from '../../src/fire'

export { UsageError } from './cliArgs'

export const POINT_USAGE = `usage: npm run fire -- point --fuel-model <number or code, e.g. 124 or gs4>
    --moisture <1h,10h,100h,herb,woody in %> --wind <mph> --wind-height midflame|20ft
    --wind-from <degrees the wind blows from> --slope <n> --slope-units percent|degrees
    --aspect <degrees the slope faces> [--canopy-cover <%> --canopy-height <ft> --crown-ratio <0-1>] [--json]
       npm run fire -- validate    (the validation table of docs/fire.md)`

const OPTIONS = {
  'fuel-model': { type: 'string' },
  moisture: { type: 'string' },
  wind: { type: 'string' },
  'wind-height': { type: 'string' },
  'wind-from': { type: 'string' },
  slope: { type: 'string' },
  'slope-units': { type: 'string' },
  aspect: { type: 'string' },
  'canopy-cover': { type: 'string' },
  'canopy-height': { type: 'string' },
  'crown-ratio': { type: 'string' },
  json: { type: 'boolean' },
} as const

type Values = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string
}

function parseCanopy(values: Values): SurfaceFireInputs['canopy'] {
  const given = (['canopy-cover', 'canopy-height', 'crown-ratio'] as const).filter(
    (o) => values[o] !== undefined,
  )
  if (given.length === 0) return undefined
  if (values['canopy-cover'] === undefined || values['canopy-height'] === undefined)
    throw new UsageError(`--${given[0]} needs both --canopy-cover and --canopy-height`)
  const crown = values['crown-ratio']
  return {
    coverPercent: numberIn(values['canopy-cover'], 'canopy-cover', 0, 100, 'a cover in %'),
    heightFt: numberIn(values['canopy-height'], 'canopy-height', 0, 400, 'a height in ft'),
    ...(crown !== undefined
      ? { crownRatioFraction: numberIn(crown, 'crown-ratio', 0, 1, 'a fraction') }
      : {}),
  }
}

/** Reads the options of `point` into the core's inputs; throws UsageError naming the option at fault. */
export function parsePointArgs(args: readonly string[]): { inputs: SurfaceFireInputs; json: boolean } {
  let values: Values
  try {
    values = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false })
      .values as Values
  } catch (err) {
    throw new UsageError(
      err instanceof Error ? err.message.replace(/\. To specify a positional.*$/s, '') : String(err),
    )
  }
  const key = required(values, 'fuel-model')
  const fuelModel = findFuelModel(key)
  if (!fuelModel)
    throw new UsageError(
      `--fuel-model '${key}' is not a fuel model number or code in config/fuel-models.yaml (e.g. 124 or gs4)`,
    )
  const slopeUnits = oneOf(required(values, 'slope-units'), 'slope-units', ['percent', 'degrees'] as const)
  const slopeText = required(values, 'slope')
  const slopePercent =
    slopeUnits === 'percent'
      ? numberIn(slopeText, 'slope', 0, 1000, 'a slope in percent')
      : slopePercentFromDeg(numberIn(slopeText, 'slope', 0, 89, 'a slope in degrees'))
  const inputs: SurfaceFireInputs = {
    fuelModel,
    moisture: parseMoisture(required(values, 'moisture')),
    windSpeedMph: numberIn(required(values, 'wind'), 'wind', 0, 200, 'a wind speed in mph'),
    windHeight: oneOf(required(values, 'wind-height'), 'wind-height', ['midflame', '20ft'] as const),
    windFromDeg: numberIn(required(values, 'wind-from'), 'wind-from', 0, 360, 'a direction in degrees'),
    slopePercent,
    aspectDeg: numberIn(required(values, 'aspect'), 'aspect', 0, 360, 'a direction in degrees'),
    canopy: parseCanopy(values),
  }
  return { inputs, json: values.json === true }
}

const round = (n: number, digits = 4): number => Number(n.toFixed(digits))

/** The JSON object `point` prints: rates, intensity, flame length and shape of the surface fire. */
export function pointResult(inputs: SurfaceFireInputs): Record<string, number | string | boolean> {
  const f = surfaceFire(inputs)
  const chH = (ftMin: number) => round(ftMin / FT_PER_MIN_PER_CH_PER_H)
  return {
    fuel_model: inputs.fuelModel.code,
    fuel_model_number: inputs.fuelModel.number,
    ros_ch_h: chH(f.rosFtPerMin),
    ros_ft_min: round(f.rosFtPerMin),
    backing_ros_ch_h: chH(f.backingRosFtPerMin),
    flanking_ros_ch_h: chH(f.flankingRosFtPerMin),
    flame_length_ft: round(f.flameLengthFt),
    fireline_intensity_btu_ft_s: round(f.firelineIntensityBtuPerFtPerS),
    length_to_width: round(f.lengthToWidth),
    max_spread_dir_deg: round(f.maxSpreadDirDeg, 2),
    midflame_wind_mph: round(f.midflameWindSpeedMph),
    wind_adjustment_factor: round(f.windAdjustmentFactor),
    sheltered: f.sheltered,
    effective_wind_mph: round(f.effectiveWindSpeedMph),
    reaction_intensity_btu_ft2_min: round(f.reactionIntensityBtuPerFt2PerMin),
    heat_per_unit_area_btu_ft2: round(f.heatPerUnitAreaBtuPerFt2),
    live_moisture_of_extinction_pct: round(f.fuelbed.liveMoistureOfExtinctionFraction * 100),
  }
}

/** Runs `point`; answers the text to print. */
export function runPoint(args: readonly string[]): string {
  const { inputs, json } = parsePointArgs(args)
  const result = pointResult(inputs)
  if (json) return JSON.stringify(result)
  return Object.entries(result)
    .map(([k, v]) => `${k.padEnd(32)} ${String(v)}`)
    .join('\n')
}
