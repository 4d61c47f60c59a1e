import { decodeFilter } from '../../shared/filters'
import { parseDecimal } from '../http/strictNumbers'
import type { FieldDef } from '../store/catalog'
import type { ColumnFilter } from '../store/Store'

export type ParsedFilters = { ok: true; filters: ColumnFilter[] } | { ok: false; message: string }

/**
 * Turns raw `filters` values into store filters against the dataset's filterable fields:
 * numeric fields take an operator in `type` (default eq) and a numeric value; text and date
 * fields take no operator and match case-insensitively as 'contains'.
 */
export function parseFilters(raw: readonly string[], filterable: Map<string, FieldDef>): ParsedFilters {
  const filters: ColumnFilter[] = []
  for (const text of raw) {
    const decoded = decodeFilter(text)
    if (!decoded.ok) return decoded
    const { field, value, type } = decoded.filter
    const def = filterable.get(field)
    if (!def) {
      const allowed = [...filterable.keys()].join(', ') || 'none'
      return { ok: false, message: `field '${field}' is not filterable (filterable: ${allowed})` }
    }
    if (def.type === 'number') {
      // A string value is read as plain decimal (not `0x10`, ` 5` or `Infinity`, which Number() takes).
      const n = typeof value === 'number' ? value : parseDecimal(value, { integer: false })
      if (n === null || !Number.isFinite(n))
        return { ok: false, message: `field '${field}' is numeric; ${JSON.stringify(value)} is not a number` }
      filters.push({ field, op: type ?? 'eq', value: n })
    } else {
      if (type !== undefined)
        return {
          ok: false,
          message: `field '${field}' is text; operator '${type}' applies to numeric fields only`,
        }
      filters.push({ field, op: 'contains', value: String(value) })
    }
  }
  return { ok: true, filters }
}
