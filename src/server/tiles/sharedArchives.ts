import zlib from 'node:zlib'
import { LRUCache } from 'lru-cache'
import type { DatasetDef, VectorSourceDef } from '../store/catalog'
import type { Store } from '../store/Store'
import type { SharedArchiveSet, SharedArchiveTile, TileArchiveStorage } from '../store/tileArchiveStorage'
import type { TileLimits } from './buildTile'
import {
  archiveContentKey,
  archiveStamp,
  blockZoomOf,
  RenderDataMoved,
  renderArchiveTiles,
  storeBlocks,
  type BlockReader,
  type RenderInput,
} from './renderArchive'
import type { TileRows } from '../store/tileRows'
import { MODES, type ArchiveStamp } from './tileArchiveFile'
import { archiveTag, cutTileTag, servedTile, type ServedTile } from './tileArchives'
import type { ReadyTileData } from './readyTileData'
import { LocalArchiveCopy } from './localArchiveCopy'
import { overzoomTile, unzipped } from './overzoomTile'
import { buildTileDataYielding, spatialIndex, type TileData } from './tileData'
import { ARCHIVE_POLICY, archiveZooms } from './tilePolicy'

/** The set a server serves a source from, with what it needs per request. */
interface Served {
  set: SharedArchiveSet
  tag: string
  /** False when this server's content rules (config, code) differ from the set's: cut on request. */
  usable: boolean
  /** This server's local copy of the set, once whole (read instead of the database). */
  local: LocalArchiveCopy | null
}

export interface SharedArchivesOptions extends TileLimits {
  /** Bytes of archived tiles kept in this server's memory (LRU; misses read the database). */
  maxCacheBytes: number
  /**
   * False: render from the whole dataset's tile data (tests compare both; the benchmark's
   * `--render whole`). Default: by blocks and pieces (`BlockReader`), every source.
   */
  renderByBlocks?: boolean
}

/** How a render gets its features: the whole dataset's tile data, or one block's from its rows. */
export interface RenderData {
  /** The version's whole tile data (held for the render only). */
  whole: () => Promise<ReadyTileData>
  /** The tile data of one block's rows, or of one piece's (a tile rendered on its own). */
  block: (rows: TileRows) => Promise<ReadyTileData>
}

/** The `RenderData` of a dataset stored in `store`: tile data built between turns of the event loop. */
export function storeRenderData(store: Store, dataset: DatasetDef): RenderData {
  const ready = (data: TileData): ReadyTileData => ({ data, index: spatialIndex(data) })
  return {
    whole: async () => ready(await buildTileDataYielding(dataset, await store.tileRows(dataset.id))),
    block: async (rows) => ready(await buildTileDataYielding(dataset, rows)),
  }
}

/** Tiles written per statement while rendering. */
const WRITE_BATCH = 1000

/** How long in-process rendering works before letting requests run. */
const SLICE_MS = 8

/** Prefix of this class's keys in a cache shared with the tiles cut on request. */
const SHARED_KEY = 'shared:'

/** How often a leader retries a render lock another renderer holds. */
const LOCK_RETRY_MS = 250

/** Thrown into a render when its server stops leading: the set stays unfinished for the next leader. */
export class RenderAbandoned extends Error {
  constructor(source: string, version: number) {
    super(`render of ${source}@${version} abandoned: this server no longer leads`)
  }
}

/** What the last render of this server did (the benchmark and the logs report it). */
export interface SharedRender {
  source: string
  version: number
  tiles: number
  bytes: number
  ms: number
}

/**
 * The shared tile archives of PostgreSQL mode (docs/adr/0003): the pyramid of each large
 * dataset's sources (over `inMemoryMaxFeatures` features) to z14, rendered once per dataset
 * version by the leader into the database and read by every server through its primary key,
 * the tiles kept in a bounded LRU per server. A server serves each source from the newest
 * *complete* set: while the leader renders a new version the previous set goes on serving, and
 * the set's completion (a NOTIFY) switches every server at once (`refresh`). The servers hold no
 * dataset's tile data to serve these tiles; only the leader builds it for the render, and drops it.
 */
export class SharedArchives {
  private readonly served = new Map<string, Served | null>()
  private readonly loading = new Map<string, Promise<Served | null>>()
  /** The tiles served, until `shareCache` hands this server's one tile cache over. */
  private lru: LRUCache<string, ServedTile>
  private readonly pending = new Map<string, Promise<ServedTile>>()
  private readonly renders = new Map<string, Promise<void>>()
  /** Whether this server renders (the cluster's leader); set by `renderWhen`. */
  private leads: () => boolean = () => false
  /** Tiles cut from a set's last zoom while a newer version renders (tests). */
  overzoomed = 0
  /** Tiles read from the database since start (tests, benchmark). */
  reads = 0
  /** Tiles answered from a shared archive since start. */
  hits = 0
  /** Tiles read from this server's local copies since start (tests, benchmark). */
  localReads = 0
  /** Local copies made since start: source, version, ms (tests, benchmark). */
  readonly copied: { source: string; version: number; tiles: number; ms: number }[] = []
  /** Local copies found whole on disk and reused since start (a restart; tests, benchmark). */
  readonly reused: { source: string; version: number; tiles: number; ms: number }[] = []
  /** Where this server keeps its local copies (null: it reads the database for every cold tile). */
  private localDir: string | null = null
  private readonly filling = new Map<string, Promise<void>>()
  /** Times a render waited for another renderer's lock (tests). */
  lockWaits = 0
  /** Renders made by this server since start, the last one last. */
  readonly rendered: SharedRender[] = []
  /** Blocks and pieces (tiles rendered on their own) read by renders since start (tests, benchmark). */
  blocksRead = 0
  /** Of `blocksRead`, the pieces (tiles too dense for a block, rendered on their own). */
  piecesRead = 0

  constructor(
    private readonly store: Store,
    private readonly storage: TileArchiveStorage,
    private readonly options: SharedArchivesOptions,
  ) {
    this.lru = new LRUCache<string, ServedTile>({
      maxSize: Math.max(1, options.maxCacheBytes),
      sizeCalculation: (t) => 200 + (t.gz?.length ?? 0) + (t.raw?.length ?? 0),
    })
  }

  /**
   * Keeps the served tiles in `cache` (the server's tile cache, bounded by `tiles.cacheMaxMB`)
   * instead of a cache of their own: one budget for the tiles cut on request and the archived ones.
   */
  shareCache(cache: LRUCache<string, ServedTile>): void {
    this.lru = cache
  }

  /** The cache the served tiles are kept in (tests). */
  get cache(): LRUCache<string, ServedTile> {
    return this.lru
  }

  /** True when a dataset's tiles go to the shared archive (large: the others render in each server's memory). */
  handles(datasetId: string, count: number): boolean {
    if (count <= ARCHIVE_POLICY.inMemoryMaxFeatures) return false
    return this.store.catalog.sources.some((s) => s.dataset === datasetId && archiveZooms(s, count) !== null)
  }

  /** Renders the missing archives while `leads()` answers true (the cluster's leader). */
  renderWhen(leads: () => boolean): void {
    this.leads = leads
  }

  /**
   * Keeps a local copy of every served set in `dir` (a directory of this server's own), filled
   * from the database in the background once the set is served; cold tiles come from the copy
   * once it is whole, from the database before.
   */
  keepLocalCopies(dir: string): void {
    this.localDir = dir
    for (const s of this.served.values()) if (s?.usable) this.fillLocal(s)
  }

  /** Resolves when the local copies under way are done (tests, benchmark). */
  async localCopiesDone(): Promise<void> {
    while (this.filling.size > 0) await Promise.all(this.filling.values())
  }

  private fillLocal(s: Served): void {
    const dir = this.localDir
    const key = `${s.set.source}@${s.set.version}`
    if (!dir || s.local || this.filling.has(key)) return
    const started = performance.now()
    const current = () => this.served.get(s.set.source) === s
    const fill = (async () => {
      // A restart: the copy on disk serves when it is whole and true to the set (checked).
      const kept = await LocalArchiveCopy.open(s.set, dir)
      const copy = kept ?? (await LocalArchiveCopy.fill(this.storage, s.set, dir, current))
      if (!copy) return
      if (!current()) return copy.drop()
      s.local = copy
      const made = {
        source: s.set.source,
        version: s.set.version,
        tiles: copy.size,
        ms: performance.now() - started,
      }
      if (kept) this.reused.push(made)
      else this.copied.push(made)
    })()
      // The database keeps serving when a copy fails (a full disk): nothing else changes.
      .catch(() => undefined)
      .finally(() => this.filling.delete(key))
    this.filling.set(key, fill)
  }

  get leading(): boolean {
    return this.leads()
  }

  /** A tile from the source's current shared set; undefined when none serves it (cut on request). */
  async get(source: VectorSourceDef, z: number, x: number, y: number): Promise<ServedTile | undefined> {
    const s = this.served.get(source.id) ?? (this.served.has(source.id) ? null : await this.load(source))
    if (!s || !s.usable || z < s.set.minZoom || z > s.set.maxZoom) return undefined
    // Prefixed: the cache may be shared with the tiles cut on request (`shareCache`).
    const key = `${SHARED_KEY}${source.id}@${s.set.version}/${z}/${x}/${y}`
    this.hits += 1
    const hit = this.lru.get(key)
    if (hit) return hit
    const inFlight = this.pending.get(key)
    if (inFlight) return inFlight
    const read = this.read(s, key, z, x, y).finally(() => this.pending.delete(key))
    this.pending.set(key, read)
    return read
  }

  /**
   * While a newer version than the set serving is stored (its set renders): a tile deeper than the
   * set's zooms cut from the set's tile at its last zoom (`overzoomTile`), so every zoom of the
   * source shows the set's version until the switch — never the new rows' z15+ beside the old
   * set's z0–14. Undefined when no transition is under way (deeper tiles are cut from the rows).
   */
  async overzoom(
    source: VectorSourceDef,
    z: number,
    x: number,
    y: number,
    storedVersion: number,
  ): Promise<ServedTile | undefined> {
    const s = this.served.get(source.id) ?? (this.served.has(source.id) ? null : await this.load(source))
    if (!s || !s.usable || z <= s.set.maxZoom || s.set.version >= storedVersion) return undefined
    const key = `${SHARED_KEY}${source.id}@${s.set.version}o/${z}/${x}/${y}`
    const hit = this.lru.get(key)
    if (hit) return hit
    const from = s.set.maxZoom
    const d = z - from
    const parent = await this.get(source, from, x >> d, y >> d)
    if (!parent) return undefined
    this.overzoomed += 1
    const cut = parent.gz ? overzoomTile(unzipped(parent.gz), source.dataset, from, z, x, y) : null
    const tag = cutTileTag(key.slice(SHARED_KEY.length))
    let tile: ServedTile
    if (!cut) tile = { gz: null, raw: null, etag: `"${tag}"`, features: 0, mode: parent.mode }
    else {
      const raw = Buffer.from(cut.pbf.buffer, cut.pbf.byteOffset, cut.pbf.byteLength)
      const gz = zlib.gzipSync(raw, { level: 1 })
      tile = { gz, raw, etag: `"${tag}-${gz.length}"`, features: cut.features, mode: parent.mode }
    }
    this.lru.set(key, tile)
    return tile
  }

  private async read(s: Served, key: string, z: number, x: number, y: number): Promise<ServedTile> {
    let t: SharedArchiveTile | null
    // A dropped copy (its set replaced 30 s ago) starts no read: the database answers.
    if (s.local && !s.local.dropped) {
      this.localReads += 1
      const l = await s.local.tile(z, x, y)
      t = l ? { z, x, y, ...l } : null
    } else {
      this.reads += 1
      t = await this.storage.tile(s.set.source, s.set.version, z, x, y)
    }
    // A tile the render never visited is empty (its parent held nothing): the same answer and
    // ETag as SQLite mode's cut of it.
    const tile: ServedTile = t
      ? servedTile(s.tag, { ...t, mode: MODES[t.mode] ?? 'full' })
      : {
          gz: null,
          raw: null,
          etag: `"${cutTileTag(key.slice(SHARED_KEY.length))}"`,
          features: 0,
          mode: 'full',
        }
    this.lru.set(key, tile)
    return tile
  }

  /** The version of the set serving a source now (null: none), loading it if not known yet. */
  async version(sourceId: string): Promise<number | null> {
    const source = this.store.catalog.sources.find((s) => s.id === sourceId)
    if (!source) return null
    const s = this.served.has(sourceId) ? this.served.get(sourceId) : await this.load(source)
    return s?.usable ? s.set.version : null
  }

  /** True when some source of the dataset is served from a shared set (its tile data is not needed). */
  serves(datasetId: string): boolean {
    for (const s of this.store.catalog.sources)
      if (s.dataset === datasetId && this.served.get(s.id)?.usable) return true
    return false
  }

  private load(source: VectorSourceDef): Promise<Served | null> {
    let l = this.loading.get(source.id)
    if (!l) {
      l = this.storage
        .current(source.id)
        .then((set) => {
          const s = set ? this.servedOf(source, set) : null
          // Never step back to an older set (a slow read racing a switch).
          const have = this.served.get(source.id)
          if (have && s && have.set.version === s.set.version) return have
          if (!have || !s || s.set.version >= have.set.version) {
            this.served.set(source.id, s)
            // The replaced set's copy goes once requests under way have read it.
            if (have?.local) setTimeout(() => void have.local?.drop(), 30_000).unref()
            if (s?.usable) this.fillLocal(s)
          }
          return this.served.get(source.id) ?? null
        })
        .finally(() => this.loading.delete(source.id))
      this.loading.set(source.id, l)
    }
    return l
  }

  private servedOf(source: VectorSourceDef, set: SharedArchiveSet): Served {
    const stamp = JSON.parse(set.stamp) as ArchiveStamp
    const usable = stamp.content === archiveContentKey(this.store, source, this.options, stamp.count)
    return { set, tag: archiveTag(set.stamp), usable, local: null }
  }

  /**
   * Re-reads which set serves each source of a dataset (all datasets without one): a set was
   * completed (the leader's NOTIFY) or notices may have been missed (reconnect).
   */
  async refresh(datasetId?: string): Promise<void> {
    const sources = this.store.catalog.sources.filter((s) => !datasetId || s.dataset === datasetId)
    await Promise.all(
      sources.map(async (s) => {
        await this.loading.get(s.id)
        await this.load(s)
      }),
    )
  }

  /**
   * True when every archived source of the dataset has a complete, usable set for `version`.
   * Reads the database (the leader asks before it renders).
   */
  async complete(datasetId: string, version: number): Promise<boolean> {
    await this.refresh(datasetId)
    for (const s of this.store.catalog.sources) {
      if (s.dataset !== datasetId) continue
      const have = this.served.get(s.id)
      if (!have || !have.usable || have.set.version !== version) return false
    }
    return true
  }

  /**
   * Renders the dataset's sources for the version stored now into the shared storage (the
   * leader), unless complete sets exist; `tileData` builds the tile data of one block's or one
   * piece's rows at a time (docs/adr/0003, "Memory"; the whole version's only with
   * `renderByBlocks: false`). One render per dataset and version at a time.
   */
  render(datasetId: string, tileData: RenderData): Promise<void> {
    const run = async (): Promise<void> => {
      const info = await this.store.info(datasetId)
      if (!this.handles(datasetId, info.count) || (await this.complete(datasetId, info.version))) return
      let ready: ReadyTileData | null = null
      for (const source of this.store.catalog.sources) {
        if (source.dataset !== datasetId) continue
        // One renderer per set in the cluster: a leader that lost its leadership stops at its next
        // tile and lets the lock go; the new leader waits for it, then restarts the unfinished set.
        const release = await this.lockWhileLeading(source.id, info.version)
        if (!release) return
        try {
          await this.refresh(datasetId)
          const have = this.served.get(source.id)
          if (have?.usable && have.set.version >= info.version) continue
          let input: RenderInput
          if (this.options.renderByBlocks !== false)
            input = this.countPieces(
              storeBlocks(
                this.store,
                source,
                info.version,
                blockZoomOf(this.store, source, info.count),
                ARCHIVE_POLICY.blockFeatures,
                (rows) => {
                  this.blocksRead += 1
                  return tileData.block(rows)
                },
              ),
            )
          else {
            ready ??= await tileData.whole()
            if (ready.data.version !== info.version) return
            input = ready
          }
          await this.renderSource(source, info.version, input)
        } catch (err) {
          // No longer the leader: the set stays unfinished; the next leader restarts it. Data
          // replaced during a render by blocks: unfinished too; the import's notice renders anew.
          if (err instanceof RenderAbandoned || err instanceof RenderDataMoved) return
          throw err
        } finally {
          await release()
        }
      }
      ready = null
      await this.refresh(datasetId)
    }
    const key = datasetId
    const running = this.renders.get(key)
    const next = (running ?? Promise.resolve()).then(run).finally(() => {
      if (this.renders.get(key) === next) this.renders.delete(key)
    })
    this.renders.set(key, next)
    return next
  }

  private countPieces(reader: BlockReader): BlockReader {
    return {
      ...reader,
      piece: (z, x, y, minSize, limit) => {
        this.piecesRead += 1
        return reader.piece(z, x, y, minSize, limit)
      },
    }
  }

  /**
   * The render lock of a source's set, waited for while this server leads (another renderer
   * holds it: a former leader finishing its current tile, or another process); null once this
   * server no longer leads.
   */
  private async lockWhileLeading(sourceId: string, version: number): Promise<(() => Promise<void>) | null> {
    for (;;) {
      if (!this.leads()) return null
      const release = await this.storage.lockRender(sourceId, version)
      if (release) return release
      this.lockWaits += 1
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS))
    }
  }

  private async renderSource(
    source: VectorSourceDef,
    dataVersion: number,
    input: RenderInput,
  ): Promise<void> {
    const started = performance.now()
    const stamp = await archiveStamp(this.store, source, this.options)
    const zooms = archiveZooms(source, stamp.count)
    if (zooms === null || stamp.version !== dataVersion) return
    const version = stamp.version
    await this.storage.begin({
      source: source.id,
      dataset: source.dataset,
      version,
      stamp: JSON.stringify(stamp),
      minZoom: zooms.minZoom,
      maxZoom: zooms.maxZoom,
      renderedBy: null,
    })
    let batch: SharedArchiveTile[] = []
    let bytes = 0
    const flush = async (): Promise<void> => {
      const out = batch
      batch = []
      await this.storage.write(source.id, version, out)
    }
    const tiles = await renderArchiveTiles(
      this.store,
      source,
      input,
      this.options,
      (t) => {
        if (!this.leads()) throw new RenderAbandoned(source.id, version)
        bytes += t.gz.length
        batch.push({ z: t.z, x: t.x, y: t.y, gz: t.gz, features: t.features, mode: MODES.indexOf(t.mode) })
        return batch.length >= WRITE_BATCH ? flush() : undefined
      },
      undefined,
      slices(),
    )
    await flush()
    // The data may have been replaced meanwhile: a set of an older version is still complete and
    // true to its version (it serves until the newer one's render completes).
    const ms = performance.now() - started
    await this.storage.complete(source.id, version, ms)
    this.rendered.push({ source: source.id, version, tiles, bytes, ms })
  }
}

/** A pause that yields to the event loop once SLICE_MS of work went by since the last one. */
function slices(): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < SLICE_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    since = performance.now()
  }
}
