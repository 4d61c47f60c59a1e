import type { Geometry } from 'geojson'
import type { FeedDefinition } from '../../shared/config'
import type { DatasetDef } from '../store/catalog'
import { encodeFeature } from '../store/writeDataset'
import { circleAround, geometryInBox } from './feedGeometry'
import { keyFields, rowKey } from './feedKey'
import type { FeedRow } from './feedRow'
import type { FeedRecord, ParsedFeed, Rejection } from './feedTypes'
import { compileMapping } from './mapField'
import { fieldReader, readPath, type FieldReader } from './readPath'

export interface MapContext {
  feed: FeedDefinition
  dataset: DatasetDef
  /** Records outside this [w, s, e, n] box are dropped; null keeps all. */
  bbox: readonly number[] | null
  /** Zone code → polygon, for records with zone codes and no geometry. */
  zones: ReadonlyMap<string, Geometry> | null
}

export interface Mapped {
  rows: FeedRow[]
  read: number
  outsideTerritory: number
  filteredOut: number
  duplicates: number
  withoutGeometry: number
  rejected: number
  rejections: Rejection[]
}

const MAX_REJECTIONS = 20

/** A coordinate cell or property as a number (NaN when absent or not numeric). */
function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
}

function pointFrom(record: FeedRecord, lon: FieldReader, lat: FieldReader, names: string): Geometry {
  const x = num(lon(record))
  const y = num(lat(record))
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new Error(`missing coordinates (${names})`)
  if (Math.abs(x) > 180 || Math.abs(y) > 90) throw new Error(`coordinates [${x}, ${y}] are not lon/lat`)
  return { type: 'Point', coordinates: [x, y] }
}

function zoneGeometry(
  props: Record<string, unknown>,
  codesField: string,
  zones: ReadonlyMap<string, Geometry>,
): Geometry | null {
  const raw = readPath(props, codesField)
  const codes = typeof raw === 'string' ? raw.split(/[;,]\s*/) : []
  const polygons: number[][][][] = []
  for (const code of codes) {
    const g = zones.get(code.trim())
    if (g?.type === 'Polygon') polygons.push(g.coordinates)
    else if (g?.type === 'MultiPolygon') polygons.push(...g.coordinates)
  }
  return polygons.length === 0 ? null : { type: 'MultiPolygon', coordinates: polygons }
}

/**
 * Maps parsed records onto the dataset: `filter.where`, geometry (point columns, zones, point →
 * circle), the territory box, every field mapping, then a check that the store would accept the
 * feature. Records that fail are counted with their line/feature number; records of the same key
 * keep the newest (by `time`, else the later one).
 */
export function mapRecords(parsed: ParsedFeed, ctx: MapContext): Mapped {
  const { feed, dataset, bbox, zones } = ctx
  const out: Mapped = {
    rows: [],
    read: parsed.records.length,
    outsideTerritory: 0,
    filteredOut: 0,
    duplicates: 0,
    withoutGeometry: 0,
    rejected: 0,
    rejections: [],
  }
  const fields = dataset.fields.map((f) => {
    const m = feed.fields[f.name]
    return { name: f.name, map: m ? compileMapping(f.name, f.type, m, parsed.columns) : null }
  })
  const keys = keyFields(feed, dataset)
  const byKey = new Map<string, number>()
  const where = (feed.filter?.where ?? []).map((c) => ({
    read: fieldReader(c.field, parsed.columns),
    in: c.in.map(String),
  }))
  const geo = feed.geometry
  const coords =
    geo?.lon && geo.lat
      ? {
          lon: fieldReader(geo.lon, parsed.columns),
          lat: fieldReader(geo.lat, parsed.columns),
          names: `${geo.lon}, ${geo.lat}`,
        }
      : null
  for (const record of parsed.records) {
    if (!where.every((c) => c.in.includes(String(c.read(record) ?? '')))) {
      out.filteredOut++
      continue
    }
    try {
      let geometry: Geometry | null = coords
        ? pointFrom(record, coords.lon, coords.lat, coords.names)
        : record.geometry
      if (!geometry && geo?.zones && zones) geometry = zoneGeometry(record.props, geo.zones.codes, zones)
      if (geometry && bbox && !geometryInBox(geometry, bbox)) {
        out.outsideTerritory++
        continue
      }
      let approximate = false
      if (
        geometry?.type === 'Point' &&
        dataset.geometry === 'polygon' &&
        geo?.pointRadiusMeters !== undefined
      ) {
        geometry = circleAround(geometry.coordinates, geo.pointRadiusMeters)
        approximate = true
      }
      const props: FeedRow['props'] = {}
      for (const { name, map } of fields) props[name] = map ? map(record) : null
      // A point from checked coordinate columns fits a point dataset; any other geometry is checked
      // now as the store will (kind, positions, ring sizes), so one bad feature cannot fail the write.
      if (!geometry) {
        if (!geo?.optional) throw new Error('missing geometry')
        out.withoutGeometry++
      } else if (!(coords && dataset.geometry === 'point'))
        encodeFeature(dataset, { geometry, properties: props })
      const time = feed.time ? ((props[feed.time] as string | null) ?? null) : null
      const row: FeedRow = {
        key: rowKey(keys, props, geometry, record.n),
        time,
        props,
        geometry,
        approximate,
      }
      const key = row.key
      const at = byKey.get(key)
      if (at === undefined) {
        byKey.set(key, out.rows.length)
        out.rows.push(row)
      } else {
        out.duplicates++
        const have = out.rows[at] as FeedRow
        if ((row.time ?? '') >= (have.time ?? '')) out.rows[at] = row
      }
    } catch (e) {
      out.rejected++
      if (out.rejections.length < MAX_REJECTIONS)
        out.rejections.push({
          at: `${parsed.unit} ${record.n}`,
          reason: (e instanceof Error ? e.message : String(e)).replace(/^line \d+: /, ''),
        })
    }
  }
  return out
}
