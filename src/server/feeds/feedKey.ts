import type { FeedDefinition } from '../../shared/config'
import type { DatasetDef } from '../store/catalog'
import { firstPosition } from './feedGeometry'
import type { FeedRow } from './feedRow'

/** The key fields of a feed: its own `key`, else its dataset's key; empty means every record is new. */
export function keyFields(feed: FeedDefinition, dataset: DatasetDef): readonly string[] {
  return feed.key ?? (dataset.key ? [dataset.key] : [])
}

/** The identity of a row: its key field values (`geometry`: the point position to 1e-5°), joined. */
export function rowKey(
  fields: readonly string[],
  props: FeedRow['props'],
  geometry: FeedRow['geometry'],
  fallback: number,
): string {
  if (fields.length === 0) return `#${fallback}`
  let key = ''
  for (const f of fields) {
    if (f === 'geometry') {
      const p = firstPosition(geometry)
      key += p ? `${Math.round((p[0] ?? 0) * 1e5)} ${Math.round((p[1] ?? 0) * 1e5)}` : '-'
    } else key += String(props[f] ?? '')
    key += '\u001f'
  }
  return key
}
