import type { FieldDef } from '../store/catalog'
import type { ColumnFilter } from '../store/Store'
import { likeMatcher } from './likeMatcher'
import type { Cql2Comparison } from './parseCql2'

/** A test on the lower-cased text of a filterable text field (CQL2 = <> < > and LIKE patterns). */
export interface TextTest {
  field: string
  test: (lowerValue: string) => boolean
}

/**
 * A CQL2 filter as the records API's column filters (numeric comparisons, case-insensitive
 * 'contains' for `LIKE '%text%'`) plus the text tests the records API has no operator for.
 */
export interface ItemsFilter {
  filters: ColumnFilter[]
  textTests: TextTest[]
}

export type ParsedItemsFilter = { ok: true; filter: ItemsFilter } | { ok: false; message: string }

const CONTAINS = /^%([^%_\\]*)%$/

function compareTest(op: Exclude<Cql2Comparison['op'], 'like'>, literal: string): (lower: string) => boolean {
  const x = literal.toLowerCase()
  switch (op) {
    case 'eq':
      return (v) => v === x
    case 'neq':
      return (v) => v !== x
    case 'lt':
      return (v) => v < x
    case 'lte':
      return (v) => v <= x
    case 'gt':
      return (v) => v > x
    case 'gte':
      return (v) => v >= x
  }
}

/**
 * Checks CQL2 comparisons against the table's filterable fields (as the records API does) and
 * turns them into filters. Numeric fields take numbers and = <> < <= > >=; text and date fields
 * take strings and compare case-insensitively (as the table filters do); LIKE is for text only.
 */
export function toItemsFilter(
  comparisons: readonly Cql2Comparison[],
  filterable: ReadonlyMap<string, FieldDef>,
): ParsedItemsFilter {
  const filters: ColumnFilter[] = []
  const textTests: TextTest[] = []
  for (const c of comparisons) {
    const def = filterable.get(c.property)
    if (!def) {
      const allowed = [...filterable.keys()].join(', ') || 'none'
      return { ok: false, message: `property '${c.property}' is not filterable (filterable: ${allowed})` }
    }
    if (def.type === 'number') {
      if (c.op === 'like')
        return { ok: false, message: `LIKE applies to text properties; '${c.property}' is numeric` }
      if (typeof c.value !== 'number')
        return {
          ok: false,
          message: `property '${c.property}' is numeric; ${JSON.stringify(c.value)} is not a number`,
        }
      filters.push({ field: c.property, op: c.op, value: c.value })
      continue
    }
    const literal = String(c.value)
    if (c.op === 'like') {
      const m = CONTAINS.exec(literal)
      if (m) filters.push({ field: c.property, op: 'contains', value: m[1] as string })
      else textTests.push({ field: c.property, test: likeMatcher(literal.toLowerCase()) })
    } else {
      textTests.push({ field: c.property, test: compareTest(c.op, literal) })
    }
  }
  return { ok: true, filter: { filters, textTests } }
}

/** The same filter evaluated on one row's raw values (the fallback while the column index is built). */
export function rowMatches(filter: ItemsFilter, valueOf: (field: string) => unknown): boolean {
  for (const f of filter.filters) {
    const v = valueOf(f.field)
    if (f.op === 'contains') {
      if (typeof v !== 'string' && typeof v !== 'number') return false
      const s = String(v)
      if (s === '' || !s.toLowerCase().includes(f.value.toLowerCase())) return false
      continue
    }
    if (typeof v !== 'number' || Number.isNaN(v)) return false
    const x = f.value
    const ok =
      f.op === 'eq'
        ? v === x
        : f.op === 'neq'
          ? v < x || v > x
          : f.op === 'gt'
            ? v > x
            : f.op === 'gte'
              ? v >= x
              : f.op === 'lt'
                ? v < x
                : v <= x
    if (!ok) return false
  }
  for (const t of filter.textTests) {
    const v = valueOf(t.field)
    if ((typeof v !== 'string' && typeof v !== 'number') || v === '') return false
    if (!t.test(String(v).toLowerCase())) return false
  }
  return true
}
