import type { FeedFieldMapping } from '../../generated/types'
import type { FieldType } from '../store/catalog'
import { parseFeedTime } from './feedTime'
import { readPath } from './readPath'
import { convertUnit, unitOf } from './units'

type Value = string | number | null

const isMissing = (v: unknown) => v === undefined || v === null || v === ''

function sameValue(a: unknown, b: string | number): boolean {
  if (typeof a === 'number' || typeof b === 'number')
    return Number(a) === Number(b) && String(a).trim() !== ''
  return a === b
}

function scalarText(v: unknown, label: string): string {
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  throw new Error(`${label}: expected a value, got ${JSON.stringify(v)?.slice(0, 40)}`)
}

/**
 * Fills one dataset field from a feed record, in the order the mapping documents: from/value →
 * nullValues → match → time → ranges/lookup → convert → default/required. Throws a short reason
 * (the record is then rejected and counted).
 */
export function mapField(
  name: string,
  type: FieldType,
  m: FeedFieldMapping,
  props: Record<string, unknown>,
  units: Record<string, string> | undefined,
): Value {
  const from = m.from === undefined ? [] : Array.isArray(m.from) ? m.from : [m.from]
  let source = from[0]
  let raw: unknown =
    m.value !== undefined ? m.value : source !== undefined ? readPath(props, source) : undefined
  if (isMissing(raw) && m.orFrom !== undefined) {
    source = m.orFrom
    raw = readPath(props, m.orFrom)
  }
  const label = source ?? name
  if (!isMissing(raw) && m.nullValues?.some((n) => sameValue(raw, n))) raw = undefined
  if (!isMissing(raw) && m.match !== undefined) {
    const hit = new RegExp(m.match).exec(scalarText(raw, label))
    raw = hit ? (hit[1] ?? hit[0]).trim() : undefined
  }
  if (!isMissing(raw) && m.time !== undefined) {
    const values = m.time === 'dateHhmm' ? from.map((f) => readPath(props, f)) : [raw]
    if (values.some(isMissing)) raw = undefined
    else
      try {
        raw = parseFeedTime(m.time, values)
      } catch (e) {
        throw new Error(`${label}: ${e instanceof Error ? e.message : String(e)}`)
      }
  }
  if (!isMissing(raw) && (m.ranges || m.lookup)) {
    const n = typeof raw === 'number' ? raw : Number(scalarText(raw, label))
    const band =
      m.ranges && Number.isFinite(n) ? m.ranges.find((r) => r.below === undefined || n < r.below) : undefined
    const key = scalarText(raw, label).trim()
    const looked = band ? band.value : m.lookup && Object.hasOwn(m.lookup, key) ? m.lookup[key] : undefined
    if (looked === undefined) {
      if (m.default === undefined) throw new Error(`${label}: unknown value ${JSON.stringify(key)}`)
      raw = m.default
    } else raw = looked
  }
  if (!isMissing(raw) && m.convert !== undefined) {
    const n = typeof raw === 'number' ? raw : Number(scalarText(raw, label))
    if (!Number.isFinite(n)) throw new Error(`${label}: ${JSON.stringify(raw)} is not a number`)
    const declared = source !== undefined ? units?.[source] : undefined
    const fromUnit = m.convert.from ?? (declared !== undefined ? unitOf(declared) : undefined)
    if (!fromUnit)
      throw new Error(`${label}: the feed declares no unit${declared ? ` we know ('${declared}')` : ''}`)
    raw = convertUnit(n, fromUnit, m.convert.to)
  }
  if (isMissing(raw) && m.default !== undefined) raw = m.default
  if (isMissing(raw)) {
    if (m.required) throw new Error(`missing ${label}`)
    return null
  }
  if (type === 'number') {
    const n = typeof raw === 'number' ? raw : Number(scalarText(raw, label).trim())
    if (!Number.isFinite(n) || (typeof raw === 'string' && raw.trim() === ''))
      throw new Error(`${label}: ${JSON.stringify(raw)} is not a number`)
    return n
  }
  const text = scalarText(raw, label)
  if (type === 'date' && Number.isNaN(Date.parse(text)))
    throw new Error(`${label}: ${JSON.stringify(text)} is not a date`)
  return text
}
