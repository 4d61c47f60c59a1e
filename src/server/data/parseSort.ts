import type { FieldDef } from '../store/catalog'
import type { SortKey } from '../store/Store'

export type ParsedSort = { ok: true; sort: SortKey | undefined } | { ok: false; message: string }

/**
 * The records `sort` parameter: `field` (ascending) or `-field` (descending), on a column the
 * table config marks filterable. Absent or empty: id order.
 */
export function parseSort(raw: string | undefined, filterable: Map<string, FieldDef>): ParsedSort {
  if (raw === undefined || raw === '') return { ok: true, sort: undefined }
  const descending = raw.startsWith('-')
  const field = descending ? raw.slice(1) : raw
  if (!filterable.has(field)) {
    const allowed = [...filterable.keys()].join(', ') || 'none'
    return {
      ok: false,
      message: `cannot sort by '${field}' (sortable: ${allowed}; prefix '-' for descending)`,
    }
  }
  return { ok: true, sort: { field, descending } }
}
