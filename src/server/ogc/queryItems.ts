import type { DatasetDef } from '../store/catalog'
import type { AppStore, OgcFeatureStorage } from '../store/AppStore'
import type { OgcFeatureRow, DatasetExtents } from '../store/ogcFeatures'
import { rowMatches, type ItemsFilter } from './itemsFilter'

/** A bbox in CRS84: [minLon, minLat, maxLon, maxLat] (minLon > maxLon crosses the antimeridian). */
export type Bbox = readonly [number, number, number, number]

export interface ItemsQuery {
  filter: ItemsFilter
  bbox?: Bbox
  /** Closed interval in epoch ms (±Infinity for an open end). */
  interval?: readonly [number, number]
  limit: number
  offset: number
}

export interface ItemsPage {
  matched: number
  rows: OgcFeatureRow[]
}

/** Position of `id` in the ascending `ids`, or -1. */
function positionOf(ids: Int32Array, id: number): number {
  let lo = 0
  let hi = ids.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const v = ids[mid] as number
    if (v === id) return mid
    if (v < id) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

/** Row positions (of `ext`) passing the attribute filter: from the records column index, else a scan. */
async function attributeMask(
  store: AppStore,
  reader: OgcFeatureStorage,
  d: DatasetDef,
  ext: DatasetExtents,
  filter: ItemsFilter,
): Promise<Uint8Array> {
  const n = ext.ids.length
  const mask = new Uint8Array(n)
  const index = await store.columnIndex(d.id)
  const sameRows =
    index !== null &&
    index.ids.length === n &&
    (n === 0 || (index.ids[0] === ext.ids[0] && index.ids[n - 1] === ext.ids[n - 1]))
  if (index && sameRows) {
    if (filter.filters.length > 0) {
      for (const id of index.query(filter.filters, n, 0).ids) {
        const p = positionOf(ext.ids, id)
        if (p >= 0) mask[p] = 1
      }
    } else mask.fill(1)
    for (const t of filter.textTests) {
      const col = index.column(t.field)
      if (!col || col.kind !== 'text') throw new Error(`column ${t.field} is not an indexed text column`)
      const hit = new Uint8Array(col.dict.length)
      col.dict.forEach((s, c) => (hit[c] = c !== 0 && t.test(s) ? 1 : 0))
      for (let i = 0; i < n; i++) if (mask[i] === 1 && hit[col.codes[i] as number] !== 1) mask[i] = 0
    }
    return mask
  }
  const fields = [
    ...new Set([...filter.filters.map((f) => f.field), ...filter.textTests.map((t) => t.field)]),
  ]
  const ids = await reader.scanIds(d, fields, (values) =>
    rowMatches(filter, (f) => values[fields.indexOf(f)]),
  )
  for (const id of ids) {
    const p = positionOf(ext.ids, id)
    if (p >= 0) mask[p] = 1
  }
  return mask
}

/**
 * One page of a dataset's features in id order, and how many match. With only records-API
 * filters it is the records API's own query (same filters, total and raw values) plus geometry;
 * otherwise the records column index and the per-row extents (id order, kept per dataset
 * version) narrow the rows, and a page is read by id (no SQL OFFSET walk).
 */
export async function queryItems(
  store: AppStore,
  reader: OgcFeatureStorage,
  d: DatasetDef,
  q: ItemsQuery,
): Promise<ItemsPage> {
  if (q.filter.filters.length > 0 && !q.bbox && !q.interval && q.filter.textTests.length === 0) {
    const page = await store.records(d.id, q.filter.filters, q.limit, q.offset)
    const ids = page.records.map((r) => Number(r.id))
    const geoms = await reader.geometries(d, ids)
    const rows: OgcFeatureRow[] = []
    for (const r of page.records) {
      const id = Number(r.id)
      const geom = geoms.get(id)
      if (!geom) continue
      const properties: Record<string, string | number | null> = {}
      for (const f of d.fields) {
        const v = r[f.name]
        properties[f.name] = typeof v === 'number' || typeof v === 'string' ? v : null
      }
      rows.push({ id, geom, properties })
    }
    return { matched: page.total, rows }
  }
  const ext = await reader.extents(d, (await store.info(d.id)).version)
  const n = ext.ids.length
  const attrs =
    q.filter.filters.length + q.filter.textTests.length > 0
      ? await attributeMask(store, reader, d, ext, q.filter)
      : null
  const box = q.bbox
  const wraps = box !== undefined && box[0] > box[2]
  const times = q.interval ? ext.times : null
  const [t0, t1] = q.interval ?? [0, 0]
  const end = q.offset + q.limit
  const pageIds: number[] = []
  let matched = 0
  for (let i = 0; i < n; i++) {
    if (attrs && attrs[i] !== 1) continue
    if (box) {
      if ((ext.maxy[i] as number) < box[1] || (ext.miny[i] as number) > box[3]) continue
      const lo = ext.minx[i] as number
      const hi = ext.maxx[i] as number
      if (wraps ? hi < box[0] && lo > box[2] : hi < box[0] || lo > box[2]) continue
    }
    if (q.interval) {
      const t = times ? (times[i] as number) : NaN
      if (!(t >= t0 && t <= t1)) continue
    }
    if (matched >= q.offset && matched < end) pageIds.push(ext.ids[i] as number)
    matched++
  }
  return { matched, rows: await reader.rows(d, pageIds) }
}
