import type { FeedDefinition } from '../../shared/config'
import type { DatasetDef } from '../store/catalog'
import type { FeatureInput } from '../store/writeDataset'
import { keyFields } from './feedKey'
import type { FeedRow } from './feedRow'

/** Two rows of one key from different feeds: the real geometry wins, fields fill first-non-null in feed order. */
function combine(a: FeedRow, b: FeedRow): FeedRow {
  const geometry =
    a.geometry && !a.approximate
      ? a.geometry
      : b.geometry && !b.approximate
        ? b.geometry
        : (a.geometry ?? b.geometry)
  const approximate = geometry === a.geometry ? a.approximate : b.approximate
  const props: FeedRow['props'] = { ...a.props }
  for (const [k, v] of Object.entries(b.props)) if (props[k] === null || props[k] === undefined) props[k] = v
  const time = (a.time ?? '') >= (b.time ?? '') ? a.time : b.time
  return { key: a.key, time, props, geometry, approximate }
}

function toFeature(r: FeedRow): FeatureInput {
  return r.geometry === null
    ? { geometry: null, properties: r.props, recordOnly: true }
    : { geometry: r.geometry, properties: r.props }
}

/**
 * The features a dataset holds: the current rows of every feed writing it, in config order.
 * Feeds with the same key fields are joined on their keys (an incident and its perimeter share the
 * IRWIN id). Rows without geometry (zone-only alerts without zone polygons) are kept as records:
 * in the table, not on the map.
 */
export function combineRows(
  dataset: DatasetDef,
  feeds: readonly { feed: FeedDefinition; rows: readonly FeedRow[] }[],
): FeatureInput[] {
  const filled = feeds.filter((f) => f.rows.length > 0)
  if (filled.length <= 1) {
    // One feed holds rows (the others have not run): its rows are the dataset.
    return (filled[0]?.rows ?? []).map(toFeature)
  }
  const groups = new Map<string, Map<string, FeedRow>>()
  const loose: FeedRow[] = []
  for (const { feed, rows } of feeds) {
    const fields = keyFields(feed, dataset)
    if (fields.length === 0) {
      loose.push(...rows)
      continue
    }
    const spec = JSON.stringify(fields)
    let group = groups.get(spec)
    if (!group) groups.set(spec, (group = new Map()))
    for (const row of rows) {
      const have = group.get(row.key)
      group.set(row.key, have ? combine(have, row) : row)
    }
  }
  const all = [...[...groups.values()].flatMap((g) => [...g.values()]), ...loose]
  return all.map(toFeature)
}
