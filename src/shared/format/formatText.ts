import { formatSignificant } from './formatNumber'
import { resolveFormatOptions, toFiniteNumber, type FormatOptions } from './formatOptions'

/** Words title-cased: "HIGH voltage_line" → "High Voltage Line", "medium-high" → "Medium-High". */
export function formatTitleCase(value: unknown, options?: FormatOptions): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  if (!resolveFormatOptions(options).titleCaseWords) return text
  return text
    .replace(/_+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((word) =>
      word
        .toLowerCase()
        .replace(/(^|[-/(])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase()),
    )
    .join(' ')
}

/** A value followed by the unit held in another field of the same record, e.g. "45 mph". */
export function formatValueWithUnit(
  value: unknown,
  record: Readonly<Record<string, unknown>> | undefined,
  unitField: string | undefined,
  options?: FormatOptions,
): string {
  if (value === null || value === undefined || value === '') return ''
  const text = toFiniteNumber(value) === null ? String(value) : formatSignificant(value, options)
  const unit = unitField && record ? record[unitField] : undefined
  return unit === null || unit === undefined || unit === '' ? text : `${text} ${String(unit)}`
}
