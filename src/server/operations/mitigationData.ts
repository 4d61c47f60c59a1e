import type { Geometry } from 'geojson'
import type { MitigationSettings } from '../../shared/config'
import { decodeParts, partsToGeometry } from '../store/geometryCodec'
import type { Store, StoredFeature } from '../store/Store'
import { normaliseCircuits, type Bbox, type CircuitFactors, type NormalisedSet } from './mitigationScore'

/** One circuit's geometry for the map highlight. */
export interface CircuitGeometry {
  id: number
  key: string
  bbox: Bbox
  geometry: Geometry
}

interface Snapshot {
  version: number
  set: NormalisedSet
  features: Map<number, StoredFeature>
}

function numberOrNull(v: string | number | null | undefined): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v)
    return Number.isFinite(n) ? n : null
  }
  return null
}

function bboxOf(geom: Uint8Array): Bbox {
  const box: Bbox = [Infinity, Infinity, -Infinity, -Infinity]
  for (const part of decodeParts(geom))
    for (const ring of part)
      for (const [x = 0, y = 0] of ring) {
        if (x < box[0]) box[0] = x
        if (y < box[1]) box[1] = y
        if (x > box[2]) box[2] = x
        if (y > box[3]) box[3] = y
      }
  return Number.isFinite(box[0]) ? box : [0, 0, 0, 0]
}

function circuitOf(f: StoredFeature, settings: MitigationSettings): CircuitFactors {
  const factors: Record<string, number | null> = {}
  for (const c of settings.consequence) factors[c.id] = numberOrNull(f.properties[c.field])
  const key = f.properties[settings.key]
  return {
    id: f.id,
    key: key === null || key === undefined ? '' : String(key),
    bbox: bboxOf(f.geom),
    risk: numberOrNull(f.properties[settings.risk.field]),
    factors,
  }
}

/**
 * The circuits of the mitigation dataset, normalised once per dataset version (a re-import
 * changes the version and the next request recomputes).
 */
export class MitigationData {
  private snapshot: Snapshot | null = null

  constructor(
    private readonly store: Store,
    private readonly settings: MitigationSettings,
  ) {}

  /** Whether the store holds the configured dataset. */
  get available(): boolean {
    return this.store.dataset(this.settings.dataset) !== undefined
  }

  async current(): Promise<Snapshot> {
    const { version } = await this.store.info(this.settings.dataset)
    if (this.snapshot?.version === version) return this.snapshot
    const stored = await this.store.allFeatures(this.settings.dataset)
    const set = normaliseCircuits(
      stored.map((f) => circuitOf(f, this.settings)),
      this.settings.consequence.map((c) => c.id),
    )
    const snapshot = { version, set, features: new Map(stored.map((f) => [f.id, f])) }
    this.snapshot = snapshot
    return snapshot
  }

  /** One circuit's GeoJSON geometry, or null when there is no feature with that id. */
  async geometry(id: number): Promise<CircuitGeometry | null> {
    const snap = await this.current()
    const feature = snap.features.get(id)
    const circuit = snap.set.circuits.find((c) => c.id === id)
    const def = this.store.dataset(this.settings.dataset)
    if (!feature || !circuit || !def) return null
    const geometry = partsToGeometry(decodeParts(feature.geom), def.geometry)
    return { id, key: circuit.key, bbox: circuit.bbox, geometry }
  }
}
