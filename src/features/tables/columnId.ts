import type { Column } from '../../shared/config'

/** A column's id: `id` when two columns show the same key, else its `key` (unique within a table). */
export function columnId(column: Column): string {
  return column.id ?? column.key
}
