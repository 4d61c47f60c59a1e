import type { FeedFieldMapping } from '../../shared/config'
import type { FieldType } from '../store/catalog'
import { parseFeedTime } from './feedTime'
import type { FeedRecord } from './feedTypes'
import { fieldReader } from './readPath'
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

/** A compiled field mapping: reads one record's value (throws a short reason to reject the record). */
export type FieldMapper = (record: FeedRecord) => Value

/**
 * Compiles how one dataset field is filled from a feed record, in the order the mapping
 * documents: from/value → nullValues → match → time → ranges/lookup → convert → default/required.
 * Compiled once per run, so the per-record work is only what the mapping asks for.
 */
export function compileMapping(
  name: string,
  type: FieldType,
  m: FeedFieldMapping,
  columns?: ReadonlyMap<string, number>,
): FieldMapper {
  const from = m.from === undefined ? [] : Array.isArray(m.from) ? m.from : [m.from]
  const first = from[0]
  const readFrom = from.map((f) => fieldReader(f, columns))
  const readFirst = readFrom[0]
  const readOr = m.orFrom !== undefined ? fieldReader(m.orFrom, columns) : undefined
  const regex = m.match !== undefined ? new RegExp(m.match) : null
  const nulls = m.nullValues && m.nullValues.length > 0 ? m.nullValues : null
  const lookup = m.lookup
  const ranges = m.ranges
  // A date field is read as a time in every spelling the sources write unless the mapping names one.
  const timeFormat = m.time ?? (type === 'date' ? 'auto' : undefined)
  return (record) => {
    let source = first
    let raw: unknown = m.value !== undefined ? m.value : readFirst ? readFirst(record) : undefined
    if (isMissing(raw) && readOr) {
      source = m.orFrom
      raw = readOr(record)
    }
    const label = source ?? name
    if (nulls && !isMissing(raw) && nulls.some((n) => sameValue(raw, n))) raw = undefined
    if (regex && !isMissing(raw)) {
      const hit = regex.exec(scalarText(raw, label))
      raw = hit ? (hit[1] ?? hit[0]).trim() : undefined
    }
    let isTime = false
    if (timeFormat !== undefined && !isMissing(raw)) {
      const values = timeFormat === 'dateHhmm' ? readFrom.map((read) => read(record)) : [raw]
      if (values.some(isMissing)) raw = undefined
      else
        try {
          raw = parseFeedTime(timeFormat, values)
          isTime = true
        } catch (e) {
          throw new Error(`${label}: ${e instanceof Error ? e.message : String(e)}`)
        }
    }
    if ((ranges || lookup) && !isMissing(raw)) {
      let looked: string | number | undefined
      if (ranges) {
        const n = typeof raw === 'number' ? raw : Number(scalarText(raw, label))
        if (Number.isFinite(n)) looked = ranges.find((r) => r.below === undefined || n < r.below)?.value
      }
      const key = scalarText(raw, label).trim()
      if (looked === undefined && lookup && Object.hasOwn(lookup, key)) looked = lookup[key]
      if (looked === undefined) {
        if (m.default === undefined) throw new Error(`${label}: unknown value ${JSON.stringify(key)}`)
        raw = m.default
      } else raw = looked
    }
    if (m.convert !== undefined && !isMissing(raw)) {
      const n = typeof raw === 'number' ? raw : Number(scalarText(raw, label))
      if (!Number.isFinite(n)) throw new Error(`${label}: ${JSON.stringify(raw)} is not a number`)
      const declared = source !== undefined ? record.units?.[source] : undefined
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
      if (typeof raw === 'number') {
        if (!Number.isFinite(raw)) throw new Error(`${label}: ${raw} is not a number`)
        return raw
      }
      const text = scalarText(raw, label).trim()
      const n = Number(text)
      if (!Number.isFinite(n) || text === '')
        throw new Error(`${label}: ${JSON.stringify(raw)} is not a number`)
      return n
    }
    const text = scalarText(raw, label)
    if (type === 'date' && !isTime && Number.isNaN(Date.parse(text)))
      throw new Error(`${label}: ${JSON.stringify(text)} is not a date`)
    return text
  }
}

/** One field of one record (compileMapping for a single use). */
export function mapField(
  name: string,
  type: FieldType,
  m: FeedFieldMapping,
  props: Record<string, unknown>,
  units: Record<string, string> | undefined,
): Value {
  return compileMapping(name, type, m)({ n: 0, props, geometry: null, units })
}
