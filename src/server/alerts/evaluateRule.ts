import Flatbush from 'flatbush'
import type { AlertRule, AlertRuleSide } from '../../shared/config'
import type { Alert, AlertAsset, PreparedDataset, PreparedFeature } from './alertTypes'
import { featureTime, passesSide } from './conditions'
import { expandBBox, groundDistanceMiles, type BBox } from './groundDistance'

/** Distances within this of the rule's distance count as "at" it (float noise, ≈ 1.6 mm). */
export const DISTANCE_TOLERANCE_MILES = 1e-6

const present = (v: unknown): v is string | number => v !== null && v !== undefined && v !== ''

/** The feature's name in the list: the side's labelTemplate filled in, else its label field, else its key. */
export function labelOf(f: PreparedFeature, side: AlertRuleSide): string {
  const v = f.properties[side.label]
  const plain = present(v) ? String(v) : f.key
  if (!side.labelTemplate) return plain
  let complete = true
  const text = side.labelTemplate.replace(/\{([^{}]*)\}/g, (_, field: string) => {
    const value = f.properties[field]
    if (!present(value)) complete = false
    return present(value) ? String(value) : ''
  })
  return complete ? text : plain
}

function union(boxes: BBox[]): BBox {
  const out: BBox = [Infinity, Infinity, -Infinity, -Infinity]
  for (const b of boxes) {
    out[0] = Math.min(out[0], b[0])
    out[1] = Math.min(out[1], b[1])
    out[2] = Math.max(out[2], b[2])
    out[3] = Math.max(out[3], b[3])
  }
  return out
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000

function assetIndex(assets: PreparedFeature[]): Flatbush {
  const index = new Flatbush(assets.length)
  for (const a of assets) index.add(...a.shape.bbox)
  index.finish()
  return index
}

/**
 * Evaluates one rule: every hazard feature passing its side's conditions that lies within the
 * rule's ground distance of at least one passing asset raises one alert. Candidate assets come
 * from a bbox index searched with the hazard's bbox grown by the distance.
 */
export function evaluateRule(
  rule: AlertRule,
  hazards: PreparedDataset,
  assets: PreparedDataset,
  now: number,
): Alert[] {
  const hazardList = hazards.features.filter((f) => passesSide(f.properties, rule.hazard, now))
  const assetList = assets.features.filter((f) => passesSide(f.properties, rule.asset, now))
  if (hazardList.length === 0 || assetList.length === 0) return []
  const index = assetIndex(assetList)
  const reach = rule.distanceMiles + DISTANCE_TOLERANCE_MILES
  const alerts: Alert[] = []
  for (const h of hazardList) {
    const found: { asset: PreparedFeature; miles: number }[] = []
    for (const i of index.search(...expandBBox(h.shape.bbox, reach * 1.001))) {
      const asset = assetList[i] as PreparedFeature
      const miles = groundDistanceMiles(h.shape, asset.shape, reach)
      if (miles <= reach) found.push({ asset, miles })
    }
    if (found.length === 0) continue
    found.sort((a, b) => a.miles - b.miles || a.asset.id - b.asset.id)
    const t = featureTime(h.properties, rule.hazard.time)
    const time = t === null ? null : new Date(t).toISOString()
    const list: AlertAsset[] = found.map(({ asset, miles }) => ({
      dataset: assets.id,
      id: asset.id,
      label: labelOf(asset, rule.asset),
      distanceMiles: round3(miles),
    }))
    alerts.push({
      id: `${rule.id}:${h.key}`,
      ruleId: rule.id,
      ruleTitle: rule.title,
      severity: rule.severity,
      hazard: { dataset: hazards.id, id: h.id, label: labelOf(h, rule.hazard), time },
      assets: list,
      nearestMiles: list[0]?.distanceMiles ?? 0,
      time: time ?? new Date(now).toISOString(),
      bbox: union([h.shape.bbox, ...found.map((x) => x.asset.shape.bbox)]),
    })
  }
  return alerts
}
