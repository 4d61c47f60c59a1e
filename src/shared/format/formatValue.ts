import { formatDate, formatHoursAgo } from './formatDate'
import { formatCurrency, formatOneDecimal, formatSignificant } from './formatNumber'
import type { FormatOptions } from './formatOptions'
import { formatTitleCase, formatValueWithUnit } from './formatText'

/** Every formatter name config/tables.yaml columns and config/layers.yaml popups may use. */
export const FORMATTER_NAMES = [
  'currency',
  'sigfig3',
  'decimal1',
  'date',
  'hoursAgo',
  'valueUnit',
  'titleCase',
  'zoomTo',
] as const

export type FormatterName = (typeof FORMATTER_NAMES)[number]

export function isFormatterName(name: unknown): name is FormatterName {
  return typeof name === 'string' && (FORMATTER_NAMES as readonly string[]).includes(name)
}

/** What a column or popup field says about how to show its value. */
export interface FormatterSpec {
  formatter?: string | null
  unitField?: string | null
}

/** A raw value as plain text: numbers and strings as they are, arrays joined, objects as JSON. */
export function formatPlain(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(formatPlain).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function unreachable(name: never): never {
  throw new Error(`Unhandled formatter: ${String(name)}`)
}

/**
 * Formats one value of a record for display. `formatter` is the column's or popup field's formatter
 * (a name from FORMATTER_NAMES, or a spec object carrying it and its unitField); missing or unknown
 * formatters show the plain value. `zoomTo` is an action in the table; as text it is the bbox list.
 */
export function formatValue(
  formatter: string | FormatterSpec | null | undefined,
  value: unknown,
  record?: Readonly<Record<string, unknown>>,
  options?: FormatOptions,
): string {
  const spec: FormatterSpec = typeof formatter === 'object' && formatter !== null ? formatter : { formatter }
  const name = spec.formatter
  if (!isFormatterName(name)) return formatPlain(value)
  switch (name) {
    case 'currency':
      return formatCurrency(value, options)
    case 'sigfig3':
      return formatSignificant(value, options)
    case 'decimal1':
      return formatOneDecimal(value, options)
    case 'date':
      return formatDate(value, options)
    case 'hoursAgo':
      return formatHoursAgo(value, options)
    case 'valueUnit':
      return formatValueWithUnit(value, record, spec.unitField ?? undefined, options)
    case 'titleCase':
      return formatTitleCase(value, options)
    case 'zoomTo':
      return formatPlain(value)
    default:
      return unreachable(name)
  }
}
