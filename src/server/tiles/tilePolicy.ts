import type { DatasetDef, VectorSourceDef } from '../store/catalog'

/**
 * The server's default content policy for dense datasets (≥ `denseFeatures` features), used
 * when a source sets no `generalize` of its own: polygons and points become per-cell counts at
 * z ≤ 11; at z12–13 ("thinned") features under half a pixel are dropped and at most
 * `thinFeatures` (4,000 at z13; half that at z12) of the largest are kept; from z14 everything is kept
 * (up to the hard `maxFeatures` cap, again dropping the smallest).
 */
export const DEFAULT_POLICY = {
  aggregateMaxZoom: 11,
  thinMaxZoom: 13,
  minSizePx: 0.5,
  thinFeatures: 4_000,
  denseFeatures: 50_000,
}

export interface TilePolicy {
  aggregateMaxZoom: number | null
  thinMaxZoom: number | null
  minSizePx: number
  /** Feature budget at thinMaxZoom (halved per zoom below). */
  thinFeatures: number
}

export function tilePolicy(source: VectorSourceDef, dataset: DatasetDef, featureCount: number): TilePolicy {
  const g = source.generalize
  if (g) {
    return {
      aggregateMaxZoom: g.aggregateMaxZoom ?? null,
      thinMaxZoom: g.thinMaxZoom ?? null,
      minSizePx: g.minSizePx ?? DEFAULT_POLICY.minSizePx,
      thinFeatures: g.thinFeatures ?? DEFAULT_POLICY.thinFeatures,
    }
  }
  const dense = featureCount >= DEFAULT_POLICY.denseFeatures
  return {
    aggregateMaxZoom: dense && dataset.geometry !== 'line' ? DEFAULT_POLICY.aggregateMaxZoom : null,
    thinMaxZoom: dense && dataset.geometry !== 'point' ? DEFAULT_POLICY.thinMaxZoom : null,
    minSizePx: DEFAULT_POLICY.minSizePx,
    thinFeatures: DEFAULT_POLICY.thinFeatures,
  }
}

/**
 * The tile archive (pre-rendered pyramid, like tippecanoe's MBTiles): a store with a file renders
 * every source at import, seed or first start for every zoom from the source's minzoom to
 * `maxZoom` (or the source's maxzoom when lower), the same tiles as cut on request, and serves
 * them from memory; deeper zooms are cut on request. 63,000 lines: ~40,000 tiles, ~20 MB, ~20 s;
 * 5,000,000 buildings: ~117,000 tiles, ~270 MB, ~70 s of one core (docs/performance.md).
 * A store without a file (PostgreSQL) renders in each server's memory the sources of datasets of
 * at most `inMemoryMaxFeatures` features; larger ones are cut on request there.
 */
export const ARCHIVE_POLICY = {
  maxZoom: 14,
  inMemoryMaxFeatures: 100_000,
  /**
   * PostgreSQL mode's render by blocks (docs/adr/0003, "Memory"): a tile above the block zoom
   * whose box holds at most this many features is read as one block (~650 B of memory each).
   */
  blockFeatures: 200_000,
}

/** The zooms a source's archive holds. */
export interface ArchiveZooms {
  minZoom: number
  maxZoom: number
}

/** The zooms pre-rendered for a source, or null when its tiles are cut on request only. */
export function archiveZooms(source: VectorSourceDef, featureCount: number): ArchiveZooms | null {
  if (featureCount === 0) return null
  const maxZoom = Math.min(source.maxzoom, ARCHIVE_POLICY.maxZoom)
  return source.minzoom <= maxZoom ? { minZoom: source.minzoom, maxZoom } : null
}

/** True when a store without a file renders the dataset's archives in each server's memory. */
export function archivedInMemory(featureCount: number): boolean {
  return featureCount <= ARCHIVE_POLICY.inMemoryMaxFeatures
}

/** Zooms whose aggregate cells the store keeps for a dataset (all that any policy may need). */
export function aggregateZooms(sources: readonly VectorSourceDef[], dataset: DatasetDef): number[] {
  const zooms = new Set<number>()
  for (const s of sources) {
    if (s.dataset !== dataset.id) continue
    const max = s.generalize
      ? s.generalize.aggregateMaxZoom
      : dataset.geometry === 'line'
        ? undefined
        : DEFAULT_POLICY.aggregateMaxZoom
    if (max === undefined) continue
    for (let z = Math.max(0, s.minzoom); z <= max; z++) zooms.add(z)
  }
  return [...zooms].sort((a, b) => a - b)
}
