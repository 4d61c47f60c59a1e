/**
 * Shared storage of pre-rendered tile archives (PostgreSQL mode, #34; docs/adr/0003): one set per
 * source and dataset version, rendered once (by the leader) and read by every server. A store
 * without it (SQLite) keeps its archives in files next to the store (tiles/tileArchiveFile.ts).
 */
export interface SharedArchiveSet {
  source: string
  dataset: string
  /** The dataset version the set was rendered from. */
  version: number
  /** The ArchiveStamp as JSON (version, count, bbox, content rules). */
  stamp: string
  minZoom: number
  maxZoom: number
  tiles: number
  bytes: number
  renderMs: number | null
  renderedBy: string | null
}

/** One stored tile: gzip MVT (empty = an empty tile), its feature count and content mode (0 full, 1 thinned, 2 aggregated). */
export interface SharedArchiveTile {
  z: number
  x: number
  y: number
  gz: Buffer
  features: number
  mode: number
}

export interface TileArchiveStorage {
  /** The newest complete set of a source, or null. */
  current(source: string): Promise<SharedArchiveSet | null>
  /** A tile of a set; null when the set holds no such tile. */
  tile(source: string, version: number, z: number, x: number, y: number): Promise<SharedArchiveTile | null>
  /** Starts a set (dropping an unfinished one of the same source and version). */
  begin(set: Omit<SharedArchiveSet, 'tiles' | 'bytes' | 'renderMs'>): Promise<void>
  /** Writes a batch of a started set's tiles. */
  write(source: string, version: number, tiles: readonly SharedArchiveTile[]): Promise<void>
  /**
   * Marks a set complete (from now on it is the one served), deletes the sets older than the
   * previous complete one, and notifies every server (`emberline_dataset`, `{id, version, archive}`).
   */
  complete(source: string, version: number, renderMs: number): Promise<void>
  /**
   * Takes the render lock of a set (a session advisory lock on a connection of its own, so it is
   * released with the session when its holder dies): resolves with its release, or null when
   * another renderer holds it. Only the holder begins, writes and completes that set.
   */
  lockRender(source: string, version: number): Promise<(() => Promise<void>) | null>
  /** Every tile of a set, by zoom then x then y (the export reads them). */
  tiles(source: string, version: number): AsyncIterable<SharedArchiveTile>
}

/** The store's shared tile archive storage, or null (a store with files). */
export function tileArchiveStorageOf(store: object): TileArchiveStorage | null {
  const s = (store as { tileArchiveStorage?: TileArchiveStorage }).tileArchiveStorage
  return s ?? null
}
