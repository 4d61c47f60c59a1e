import type { DatasetDef } from './catalog'
import type { StoredFeature } from './Store'

/** Ids of the `limit` largest of `[id, size]` rows (ties by id), in id order. */
export function largest(rows: [number, number][], limit: number): number[] {
  if (rows.length > limit) rows.sort((p, q) => q[1] - p[1] || p[0] - q[0]).length = limit
  return rows.map((r) => r[0]).sort((a, b) => a - b)
}

/** A feature row `id, geom, <fields…>` as the tile builder and analyses read it. */
export function storedFeature(d: DatasetDef, row: unknown[]): StoredFeature {
  const properties: Record<string, string | number | null> = {}
  d.fields.forEach((f, i) => {
    const v = row[i + 2]
    properties[f.name] = typeof v === 'number' || typeof v === 'string' ? v : null
  })
  return { id: Number(row[0]), geom: row[1] as Uint8Array, properties }
}
