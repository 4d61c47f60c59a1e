import { numberFormat } from './intlCache'
import { resolveFormatOptions, toFiniteNumber, type FormatOptions } from './formatOptions'

/** US-dollar currency with thousands separators, e.g. 1234567 → "$1,234,567.00". Empty for non-numbers. */
export function formatCurrency(value: unknown, options?: FormatOptions): string {
  const n = toFiniteNumber(value)
  if (n === null) return ''
  const o = resolveFormatOptions(options)
  return numberFormat(o.locale, { style: 'currency', currency: o.currency }).format(n)
}

/** A number to 3 significant digits (from config), e.g. 12345 → "12,300", 0.012345 → "0.0123". */
export function formatSignificant(value: unknown, options?: FormatOptions): string {
  const n = toFiniteNumber(value)
  if (n === null) return ''
  const o = resolveFormatOptions(options)
  return numberFormat(o.locale, { maximumSignificantDigits: o.significantDigits }).format(n)
}

/** A number with exactly one decimal (from config), e.g. 3 → "3.0", 2.46 → "2.5". */
export function formatOneDecimal(value: unknown, options?: FormatOptions): string {
  const n = toFiniteNumber(value)
  if (n === null) return ''
  const o = resolveFormatOptions(options)
  return numberFormat(o.locale, {
    minimumFractionDigits: o.oneDecimalDigits,
    maximumFractionDigits: o.oneDecimalDigits,
  }).format(n)
}
