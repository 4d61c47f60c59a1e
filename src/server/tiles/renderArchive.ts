import fs from 'node:fs'
import zlib from 'node:zlib'
import type { VectorSourceDef } from '../store/catalog'
import type { DatasetInfo, Store } from '../store/Store'
import { candidateBox, type TileRows } from '../store/tileRows'
import { buildTile, tilePlan, type TileLimits } from './buildTile'
import { BUFFER, EXTENT, encodeSlice, pickTile, type BuiltTile } from './encodeSlice'
import { tileArchivePath, writeTileArchive, type ArchivedTile, type ArchiveStamp } from './tileArchiveFile'
import type { ReadyTileData } from './readyTileData'
import { archiveZooms, tilePolicy } from './tilePolicy'

/** Reports tiles rendered so far (the import and seed CLIs show it on their progress bar). */
export type ArchiveProgress = (label: string, tiles: number) => void

/** Bump when cutting or encoding changes what a tile holds: older archives are then re-rendered. */
const RENDER_VERSION = 1

/**
 * The content rules an archive is rendered under: a change in any of them makes it stale.
 * `count`: the dataset's feature count now (`store.info`).
 */
export function archiveContentKey(
  store: Pick<Store, 'dataset'>,
  source: VectorSourceDef,
  limits: TileLimits,
  count: number,
): string {
  const dataset = store.dataset(source.dataset)
  return JSON.stringify({
    v: RENDER_VERSION,
    source,
    fields: dataset?.fields,
    policy: dataset ? tilePolicy(source, dataset, count) : null,
    limits: { maxFeatures: limits.maxFeatures, maxGzipBytes: limits.maxGzipBytes },
  })
}

/** The stamp of a source's archive for the data stored now. */
export async function archiveStamp(
  store: Store,
  source: VectorSourceDef,
  limits: TileLimits,
): Promise<ArchiveStamp> {
  return stampOf(store, source, limits, await store.info(source.dataset))
}

function stampOf(
  store: Pick<Store, 'dataset'>,
  source: VectorSourceDef,
  limits: TileLimits,
  { version, count, bbox }: DatasetInfo,
): ArchiveStamp {
  return { version, count, bbox, content: archiveContentKey(store, source, limits, count) }
}

/**
 * Renders every tile of a source's archive zooms (`archiveZooms`), depth first from z0, visiting a
 * tile's children only where the tile holds features or dropped some (thinning): gzip level 6,
 * the same content as a tile cut on request (same plan, same byte-budget retries). Tiles above
 * the archive's first zoom are not rendered: they are descended where any feature meets them.
 * Empty tiles that were visited are kept (empty bytes) so they answer 204 at once; tiles never
 * visited are cut on request.
 */
export async function renderArchive(
  store: Store,
  source: VectorSourceDef,
  ready: ReadyTileData,
  limits: TileLimits,
  onProgress?: ArchiveProgress,
  /** Awaited before each tile (in-process rendering yields to requests there). */
  pause?: () => Promise<void>,
): Promise<ArchivedTile[]> {
  const out: ArchivedTile[] = []
  await renderArchiveTiles(store, source, ready, limits, (t) => void out.push(t), onProgress, pause)
  return out
}

/**
 * Where a render reads its features: the whole dataset's tile data, or blocks of it read from the
 * store (`blockReader`): memory bounded by a block, not by the dataset.
 */
export type RenderInput = ReadyTileData | BlockReader

/**
 * A render by blocks and pieces: every tile whose box (with a margin) holds at most `budget`
 * features starts a block — it and its subtree are rendered from the tile data of the features
 * meeting the block's box, built when the walk reaches the block and let go after it. A tile
 * holding more is rendered on its own: per-cell counts from the store where the policy aggregates
 * its zoom, otherwise a piece — the tile data of just the features its plan keeps (the `limit`
 * largest at or above `minSize`, `store.largestInBox`). Memory is one block's (≤ `budget`
 * features) or one piece's (≤ the tile's limit, at most `maxFeatures`), never the dataset's.
 * Tiles above the source's minzoom are not rendered: only "does any feature meet it", asked the store.
 */
export interface BlockReader {
  /** The dataset version rendered: every block, piece and aggregate cell read must be of it. */
  version: number
  /**
   * The first zoom the policy does not aggregate (null: it aggregates none). Aggregated tiles more
   * than `BLOCK_LOOKUP_ZOOMS` above it are rendered from cells without counting their features.
   */
  blockZoom: number | null
  /** Features a block may hold: a tile whose box holds at most this many becomes one block. */
  budget: number
  /** The tile data of the features meeting the block's box (null: the data moved on; stop). */
  block(z: number, x: number, y: number): Promise<ReadyTileData | null>
  /** Features meeting the block's box of tile z/x/y, counted up to `max`. */
  count(z: number, x: number, y: number, max: number): Promise<number>
  /** True when any feature's box meets the tile with its buffer. */
  any(z: number, x: number, y: number): Promise<boolean>
  /** The piece of a tile rendered on its own (null: the data moved on; stop). */
  piece(z: number, x: number, y: number, minSize: number, limit: number): Promise<TilePiece | null>
}

/** A tile's piece: the tile data of the features its plan keeps, and what the whole data would say of the rest. */
export interface TilePiece {
  ready: ReadyTileData
  /** Features the plan's box and minSize match, up to `limit + 1` (`LargestRows.matched`). */
  matched: number
  /** A feature under minSize meets the tile (null: not looked up, `matched` > limit). */
  hasSmaller: boolean | null
}

/** Zooms above `blockZoom` where a sparse tile may become one block (counted first). */
const BLOCK_LOOKUP_ZOOMS = 3

/**
 * The first zoom a source's policy does not aggregate, when it aggregates every zoom above it
 * from the source's minzoom (`BlockReader.blockZoom`); null when it aggregates none.
 */
export function blockZoomOf(
  store: Pick<Store, 'dataset'>,
  source: VectorSourceDef,
  count: number,
): number | null {
  const dataset = store.dataset(source.dataset)
  if (!dataset) return null
  const policy = tilePolicy(source, dataset, count)
  if (policy.aggregateMaxZoom === null) return null
  return policy.aggregateMaxZoom + 1
}

/** Margin of a block's box (tile units) beyond the tiles' own buffer: floating-point slack. */
const BLOCK_MARGIN = 2 * (BUFFER / EXTENT)

/**
 * A `BlockReader` over the store: each block's rows read by `store.tileRows(dataset, box)`, each
 * piece's by `store.largestInBox`, built into tile data (`build`); null when the rows are of
 * another version.
 */
export function storeBlocks(
  store: Store,
  source: VectorSourceDef,
  version: number,
  blockZoom: number | null,
  budget: number,
  build: (rows: TileRows) => Promise<ReadyTileData>,
): BlockReader {
  return {
    version,
    blockZoom,
    budget,
    // Lon/lat boxes reaching the poles in the top and bottom rows (Mercator clamps latitudes
    // past ±85.05° onto those rows' edges: a feature there meets them in the whole tile data).
    count: async (z, x, y, max) =>
      store.countInBox(source.dataset, candidateBox(tileBox(z, x, y, BLOCK_MARGIN)), max),
    block: async (z, x, y) => {
      const rows = await store.tileRows(source.dataset, candidateBox(tileBox(z, x, y, BLOCK_MARGIN)))
      if (rows.version !== version) return null
      // `count` sizes the tile data's arrays: the block's rows, not the dataset's.
      const list = Array.isArray(rows.rows) ? (rows.rows as unknown[][]) : Array.from(rows.rows)
      return build({ ...rows, count: list.length, rows: list })
    },
    any: async (z, x, y) => (await store.countInBox(source.dataset, candidateBox(tileBox(z, x, y)), 1)) > 0,
    piece: async (z, x, y, minSize, limit) => {
      const got = await store.largestInBox(source.dataset, tileBox(z, x, y), minSize, limit)
      if (got.version !== version) return null
      const ready = await build({ version, count: got.rows.length, bbox: null, rows: got.rows })
      return { ready, matched: got.matched, hasSmaller: got.hasSmaller }
    },
  }
}

/**
 * A tile's box grown by `buffer` (fraction of its side) in Web Mercator world units; with the
 * tiles' own buffer, the box `pickTile` searches.
 */
function tileBox(
  z: number,
  x: number,
  y: number,
  buffer = BUFFER / EXTENT,
): [number, number, number, number] {
  const n = 2 ** z
  const b = buffer
  return [(x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n]
}

/** Thrown when a render reads another version than its own (a block, a piece, aggregate cells). */
export class RenderDataMoved extends Error {}

function isBlocks(input: RenderInput): input is BlockReader {
  return 'block' in input
}

/**
 * `renderArchive`, handing each tile to `emit` as it is rendered (awaited: a writer may hold the
 * render back) instead of keeping them all; answers the number of tiles rendered. The same tiles,
 * in the same order, from the whole tile data or by blocks (`BlockReader`).
 */
export async function renderArchiveTiles(
  store: Store,
  source: VectorSourceDef,
  input: RenderInput,
  limits: TileLimits,
  emit: (tile: ArchivedTile) => void | Promise<void>,
  onProgress?: ArchiveProgress,
  pause?: () => Promise<void>,
): Promise<number> {
  const { count } = await store.info(source.dataset)
  const zooms = archiveZooms(source, count)
  if (zooms === null) return 0
  const { minZoom, maxZoom } = zooms
  const version = isBlocks(input) ? input.version : input.data.version
  let rendered = 0
  /** Walks the subtree of `root` with `ready` (null: above the block zoom, no feature data). */
  const walk = async (root: [number, number, number], ready: ReadyTileData | null): Promise<void> => {
    const stack: [number, number, number][] = [root]
    for (let next = stack.pop(); next; next = stack.pop()) {
      const [z, x, y] = next
      // Outside a block: counted (but aggregated tiles far above the block zoom: cells, no count).
      let counted: number | null = null
      if (!ready && isBlocks(input)) {
        if (input.blockZoom === null || z >= input.blockZoom - BLOCK_LOOKUP_ZOOMS)
          counted = await input.count(z, x, y, input.budget + 1)
        if (counted !== null && counted <= input.budget) {
          const block = await input.block(z, x, y)
          if (!block) throw new RenderDataMoved(`${source.dataset}: data replaced during the render`)
          await walk(next, block)
          continue
        }
      }
      let descend: boolean
      if (z < minZoom)
        descend = ready
          ? meetsAny(ready, z, x, y)
          : counted !== null || (await (input as BlockReader).any(z, x, y))
      else {
        if (pause) await pause()
        const piece =
          !ready && isBlocks(input)
            ? async (minSize: number, limit: number) => {
                const got = await input.piece(z, x, y, minSize, limit)
                if (!got) throw new RenderDataMoved(`${source.dataset}: data replaced during the render`)
                return got
              }
            : null
        const { tile, gz, more } = await renderOne(
          store,
          source,
          count,
          version,
          ready,
          limits,
          z,
          x,
          y,
          piece,
        )
        const done = emit({ z, x, y, gz, features: tile.features, mode: tile.mode })
        if (done) await done
        rendered += 1
        if (onProgress && rendered % 500 === 0) onProgress(`pre-rendering ${source.id} tiles`, rendered)
        descend = tile.features > 0 || more
      }
      if (z < maxZoom && descend)
        for (const [dx, dy] of [
          [1, 1],
          [0, 1],
          [1, 0],
          [0, 0],
        ] as const)
          stack.push([z + 1, 2 * x + dx, 2 * y + dy])
    }
  }
  await walk([0, 0, 0], isBlocks(input) ? null : input)
  return rendered
}

async function renderOne(
  store: Store,
  source: VectorSourceDef,
  count: number,
  /** The version rendered. */
  version: number,
  ready: ReadyTileData | null,
  limits: TileLimits,
  z: number,
  x: number,
  y: number,
  /** Reads the tile's piece (rendered on its own, without `ready`). */
  piece: ((minSize: number, limit: number) => Promise<TilePiece>) | null = null,
): Promise<{ tile: BuiltTile; gz: Buffer; more: boolean }> {
  let read: TilePiece | null = null
  for (let scale = 1; ; scale /= 2) {
    const plan = tilePlan(store, source, count, z, limits, scale)
    let tile: BuiltTile
    let more = false
    if (plan.aggregate) {
      const cut = await buildTile(store, source, z, x, y, limits, scale, ready)
      // Cells of a version committed during the render would mix two versions in one archive.
      if (cut.version !== version)
        throw new RenderDataMoved(`${source.dataset}: data replaced during the render`)
      tile = cut
    } else if (!ready) {
      if (!piece) throw new Error(`${source.id} z${z}: a tile with features rendered without tile data`)
      // Read once, at the first (largest) limit: a byte-budget retry keeps the top of it, which
      // is what the whole data's pick keeps at the smaller limit (the largest, ties by id).
      read ??= await piece(plan.minSize, plan.limit)
      const own = pickTile(read.ready.index, z, x, y, plan)
      const pick = { picked: own.picked, matched: read.matched }
      tile = encodeSlice(read.ready.data, read.ready.index, source.dataset, z, x, y, plan, pick)
      more =
        pick.matched > pick.picked.length ||
        read.hasSmaller === true ||
        (tile.features < pick.picked.length && pickedSmall(read.ready, pick.picked, z))
    } else {
      const pick = pickTile(ready.index, z, x, y, plan)
      tile = encodeSlice(ready.data, ready.index, source.dataset, z, x, y, plan, pick)
      more =
        pick.matched > pick.picked.length ||
        (plan.minSize > 0 && hasSmaller(ready, z, x, y, plan.minSize)) ||
        (tile.features < pick.picked.length && pickedSmall(ready, pick.picked, z))
    }
    // A copy: gzipSync's result is a view of its whole 16 KiB output chunk, kept while the tile is.
    const gz = tile.features > 0 ? Buffer.from(zlib.gzipSync(tile.pbf, { level: 6 })) : Buffer.alloc(0)
    if (gz.length <= limits.maxGzipBytes || scale <= 1 / 1024) return { tile, gz, more: more || scale < 1 }
  }
}

/** Features this small (tile units) may vanish in cutting (simplified, snapped) and show deeper. */
const COLLAPSE_UNITS = 16

/**
 * True when a picked feature is small enough at this zoom to have been cut away: a deeper zoom
 * may draw it. (Large features dropped here only grazed the tile's box: deeper tiles lack them too.)
 */
function pickedSmall(ready: ReadyTileData, picked: Iterable<number>, z: number): boolean {
  const limit = COLLAPSE_UNITS / (2 ** z * EXTENT)
  for (const k of picked) if ((ready.data.sizes[k] as number) < limit) return true
  return false
}

/** True when any feature's box meets the tile with its buffer (a tile without: empty, not rendered). */
function meetsAny(ready: ReadyTileData, z: number, x: number, y: number): boolean {
  if (!ready.index) return ready.data.n > 0
  const n = 2 ** z
  const b = BUFFER / EXTENT
  let found = false
  ready.index.search((x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n, () => {
    found = true
    return false
  })
  return found
}

/** True when features under `minSize` (dropped here) meet the tile: a deeper zoom may keep them. */
function hasSmaller(ready: ReadyTileData, z: number, x: number, y: number, minSize: number): boolean {
  if (!ready.index) return false
  const n = 2 ** z
  const b = BUFFER / EXTENT
  const sizes = ready.data.sizes
  let found = false
  ready.index.search((x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n, (k) => {
    if (!found && (sizes[k] as number) < minSize) found = true
    return false
  })
  return found
}

/**
 * Renders and writes the archive of every source of a dataset that has one under the policy
 * (tile-index/<source>.tiles next to the store file). Returns the number of tiles written: 0
 * for a store without a file (PostgreSQL, in-memory), whose servers cut those tiles on request.
 */
export async function saveTileArchives(
  store: Store,
  datasetId: string,
  ready: ReadyTileData,
  limits: TileLimits,
  onProgress?: ArchiveProgress,
): Promise<number> {
  const location = store.location
  if (!location) return 0
  const info = await store.info(datasetId)
  if (info.version !== ready.data.version) return 0
  let written = 0
  for (const source of store.catalog.sources) {
    if (source.dataset !== datasetId) continue
    const file = tileArchivePath(location, source.id)
    const zooms = archiveZooms(source, info.count)
    if (zooms === null) {
      fs.rmSync(file, { force: true })
      continue
    }
    let tiles: ArchivedTile[]
    try {
      tiles = await renderArchive(store, source, ready, limits, onProgress)
    } catch (err) {
      // Replaced meanwhile (another process's import): that import writes the newer archives.
      if (err instanceof RenderDataMoved) return written
      throw err
    }
    writeTileArchive(file, source.id, stampOf(store, source, limits, info), zooms, tiles)
    written += tiles.length
  }
  return written
}
