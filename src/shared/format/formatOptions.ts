import { appConfig } from '../config'

/** Overrides for the formatting settings in config/app.yaml (`formatting`); tests pin clock and zone. */
export interface FormatOptions {
  /** BCP 47 locale; defaults to `formatting.locale`. */
  locale?: string
  /** IANA time zone; defaults to the browser's local zone. */
  timeZone?: string
  /** Reference clock for 'N hours ago' (ms since epoch); defaults to Date.now(). */
  now?: number
}

export interface ResolvedFormatOptions {
  locale: string
  timeZone: string | undefined
  now: number
  currency: string
  significantDigits: number
  oneDecimalDigits: number
  hoursAgoTemplate: string
  titleCaseWords: boolean
}

export function resolveFormatOptions(options: FormatOptions = {}): ResolvedFormatOptions {
  const f = appConfig.formatting
  return {
    locale: options.locale ?? f.locale,
    timeZone: options.timeZone,
    now: options.now ?? Date.now(),
    currency: f.currency,
    significantDigits: f.significantDigits,
    oneDecimalDigits: f.oneDecimalDigits,
    hoursAgoTemplate: f.hoursAgoTemplate,
    titleCaseWords: f.titleCaseWords ?? true,
  }
}

/** A finite number from a number or numeric string; null for anything else (null, '', NaN, objects). */
export function toFiniteNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value)
    return Number.isFinite(n) ? n : null
  }
  return null
}

/** A valid Date from an ISO string, epoch milliseconds or Date; null otherwise. */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value
  if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) {
    const d = new Date(value)
    return Number.isNaN(d.getTime()) ? null : d
  }
  return null
}
