// The option readers every `npm run fire` command shares: a mistake names its option (UsageError,
// exit 2), never a stack trace.
import type { FuelMoisturePercent } from '../../src/fire'

/** A mistake in the command line: the message names the option; the CLI exits 2. */
export class UsageError extends Error {}

export type OptionValues = Readonly<Record<string, string | boolean | string[] | undefined>>

/** The text of a required option. */
export function required(values: OptionValues, name: string): string {
  const v = values[name]
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`)
  return v
}

/** A decimal number (no hex, no Infinity) from `min` to `max`. */
export function numberIn(text: string, option: string, min: number, max: number, what = 'a number'): number {
  const n = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text.trim()) ? Number(text) : NaN
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`--${option} must be ${what} from ${min} to ${max} (got '${text}')`)
  return n
}

/** One of the allowed words, case-insensitive. */
export function oneOf<T extends string>(text: string, option: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a === text.toLowerCase())
  if (!found) throw new UsageError(`--${option} must be one of ${allowed.join(', ')} (got '${text}')`)
  return found
}

/** `--moisture 1h,10h,100h,herb,woody` in %: dead 1–100, live 30–500. */
export function parseMoisture(text: string): FuelMoisturePercent {
  const parts = text.split(',')
  if (parts.length !== 5)
    throw new UsageError(`--moisture takes five values in % (1h,10h,100h,herb,woody); got ${parts.length}`)
  const names = ['1-h', '10-h', '100-h', 'live herbaceous', 'live woody']
  const [oneHour, tenHour, hundredHour, herb, woody] = parts.map((p, i) =>
    numberIn(p, 'moisture', i < 3 ? 1 : 30, i < 3 ? 100 : 500, `${names[i]} moisture in %`),
  ) as [number, number, number, number, number]
  return {
    oneHourPercent: oneHour,
    tenHourPercent: tenHour,
    hundredHourPercent: hundredHour,
    liveHerbPercent: herb,
    liveWoodyPercent: woody,
  }
}
