import type { DatasetDef } from '../store/catalog'
import { decodeParts } from '../store/geometryCodec'
import type { StoredFeature } from '../store/Store'
import type { PreparedDataset, PreparedFeature } from './alertTypes'
import { toShape } from './groundDistance'

/**
 * Stable keys for a dataset's features: the values of its `key` field when every feature has one
 * and no two share it (alert ids then survive a re-import), otherwise the stored feature ids.
 */
function featureKeys(def: DatasetDef, features: readonly StoredFeature[]): string[] {
  const ids = features.map((f) => String(f.id))
  if (!def.key) return ids
  const keys: string[] = []
  const seen = new Set<string>()
  for (const f of features) {
    const v = f.properties[def.key]
    if (v === null || v === undefined || v === '') return ids
    const k = String(v)
    if (seen.has(k)) return ids
    seen.add(k)
    keys.push(k)
  }
  return keys
}

/** Decodes every feature of one dataset version once (geometry in lon/lat parts, bbox, key). */
export function prepareDataset(def: DatasetDef, version: number, stored: StoredFeature[]): PreparedDataset {
  const keys = featureKeys(def, stored)
  const features: PreparedFeature[] = []
  stored.forEach((f, i) => {
    const parts = decodeParts(f.geom)
    if (parts.length === 0) return
    features.push({
      id: f.id,
      key: keys[i] ?? String(f.id),
      properties: f.properties,
      shape: toShape(parts, def.geometry),
    })
  })
  return { id: def.id, version, kind: def.geometry, features, byId: new Map(features.map((f) => [f.id, f])) }
}
