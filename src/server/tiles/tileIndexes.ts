import type { DatasetDef } from '../store/catalog'
import type { Store } from '../store/Store'
import type { ReadyTileData } from './readyTileData'
import { spatialIndex, buildTileData, buildTileDataYielding, sharedTileData, type TileData } from './tileData'
import { readTileData, tileDataPath } from './tileDataFile'
import { serverSettings } from '../appSettings'
import { startWorker } from './startWorker'
import { TileArchives } from './tileArchives'
import { TilePool } from './tilePool'
import { SharedArchives, storeRenderData } from './sharedArchives'
import { tileArchiveStorageOf } from '../store/tileArchiveStorage'

export type { ReadyTileData }

export interface TileIndexesOptions {
  /** 'worker' builds off the event loop (falls back to inline if a worker cannot start). */
  build: 'worker' | 'inline'
}

/**
 * The in-memory tile data of every dataset, one version each. `get` never waits for a build in
 * background mode (after `warm`): it answers null while the dataset's data loads or builds (the
 * caller then waits briefly for a load, or uses the store's own query), and starts one when the
 * stored version changed (an import). With a store file (SQLite) a worker thread builds and also
 * writes the data next to the store (tile-index/<dataset>.bin), so later starts only read that
 * file; without one (PostgreSQL) the data is built in process from `await store.tileRows(id)`, then
 * the archives of datasets up to 100,000 features are rendered in memory from it (no file holds them).
 * Builds run one at a time; concurrent asks for one dataset share one build.
 */
export class TileIndexes {
  private readonly ready = new Map<string, ReadyTileData>()
  private readonly building = new Map<string, { version: number; done: Promise<void> }>()
  private readonly loading = new Map<string, Promise<boolean>>()
  /** In-process builds under way, by dataset (one per dataset and version). */
  private readonly inline = new Map<string, { version: number; done: Promise<ReadyTileData> }>()
  /** Worker threads building tiles from shared tile data (started by `warm`). */
  pool: TilePool | null = null
  private queue: Promise<void> = Promise.resolve()
  private workerFailed = false
  /** Pre-rendered tiles of the sources (read after their dataset's tile data). */
  readonly archives: TileArchives
  /** Archive renders queued, by dataset@version (one each). */
  private readonly rendering = new Set<string>()
  /**
   * PostgreSQL mode: the large datasets' archives shared by every server (rendered once by the
   * leader, read from the database); null for a store with files.
   */
  readonly shared: SharedArchives | null
  /** Times this process built a dataset's tile data to serve tiles (tests: a shared dataset's stays 0). */
  builds = 0
  /** Tiles cut on request for this store since start (TileCache counts them; tests). */
  cuts = 0

  constructor(
    private readonly store: Store,
    private readonly options: TileIndexesOptions,
  ) {
    this.archives = new TileArchives(store, serverSettings().tiles)
    const storage = store.location === null ? tileArchiveStorageOf(store) : null
    const tiles = serverSettings().tiles
    this.shared = storage ? new SharedArchives(store, storage, tiles) : null
  }

  async get(datasetId: string): Promise<ReadyTileData | null> {
    const { version, count } = await this.store.info(datasetId)
    // A shared archive's dataset: no tile data is built to serve it (the leader renders, `changed`).
    if (this.shared?.handles(datasetId, count)) return null
    const have = this.ready.get(datasetId)
    if (have && have.data.version === version) return have
    if (this.background()) {
      void this.start(datasetId, version)
      return null
    }
    return this.buildInline(datasetId, version)
  }

  /**
   * Switches to background builds (`build`, default worker threads) and starts every dataset's
   * build; resolves when all are ready. main.ts calls it right after listen.
   */
  async warm(build: TileIndexesOptions['build'] = 'worker'): Promise<void> {
    this.options.build = build
    if (build === 'worker' && !this.pool) {
      this.pool = new TilePool({ file: this.store.location, catalog: this.store.catalog })
      for (const [id, r] of this.ready) this.ready.set(id, this.accept(r.data))
    }
    await Promise.all(
      this.store.catalog.datasets.map(async (d) => {
        const { version, count } = await this.store.info(d.id)
        if (!this.shared?.handles(d.id, count)) return this.start(d.id, version)
        // Served from the shared archive at once; the leader renders a missing one in the background.
        await this.shared.refresh(d.id)
        void this.renderShared(d.id).catch(() => undefined)
      }),
    )
  }

  /**
   * PostgreSQL mode, a large dataset: on the leader, renders its shared archive for the version
   * stored now when none is complete (tile data built for the render only, then let go); on
   * other servers it reads which set serves. Resolves when done.
   */
  async renderShared(datasetId: string): Promise<void> {
    const shared = this.shared
    if (!shared) return
    if (!shared.leading) return shared.refresh(datasetId)
    const dataset = this.store.dataset(datasetId)
    if (!dataset) return
    // Queued behind other builds: one dataset's tile data in memory at a time.
    const render = this.queue.then(() => shared.render(datasetId, storeRenderData(this.store, dataset)))
    this.queue = render.catch(() => undefined)
    return render
  }

  /**
   * A dataset's stored version moved (an import through any server or CLI): its tile data is
   * rebuilt — or, for a shared archive's dataset, the leader renders the new version's archive
   * (the previous one serves meanwhile). Resolves once started.
   */
  async changed(datasetId: string): Promise<void> {
    const { count } = await this.store.info(datasetId)
    if (this.shared?.handles(datasetId, count)) {
      // Not awaited: the change queue goes on while the leader renders (seconds to minutes).
      void this.renderShared(datasetId).catch(() => undefined)
      return
    }
    await this.get(datasetId)
  }

  /**
   * Makes this server render the shared archives while `leadership` says it leads, starting
   * with every dataset's missing one each time it becomes the leader (PostgreSQL mode).
   */
  shareArchives(leadership: {
    readonly isLeader: boolean
    whileLeader(task: () => () => void): () => void
  }): void {
    const shared = this.shared
    if (!shared) return
    shared.renderWhen(() => leadership.isLeader)
    leadership.whileLeader(() => {
      for (const d of this.store.catalog.datasets) void this.renderShared(d.id).catch(() => undefined)
      return () => undefined
    })
  }

  /** Builds in a worker thread over the store file (SQLite with a file, worker mode, workers working). */
  private useWorker(): boolean {
    return this.options.build === 'worker' && !this.workerFailed && this.store.location !== null
  }

  /** `get` starts builds in the background: worker mode, in threads or (no store file) in process. */
  private background(): boolean {
    return this.useWorker() || (this.options.build === 'worker' && this.store.location === null)
  }

  /**
   * Waits (without blocking anything) up to `ms` for a dataset whose tile data is being read from
   * its file — a fraction of a second, cheaper than serving from the store meanwhile. Null when
   * it is not loading (a build takes long: the caller serves from the store) or not ready in time.
   */
  async wait(datasetId: string, ms: number): Promise<ReadyTileData | null> {
    const loading = this.loading.get(datasetId)
    if (!loading) return null
    let timer: NodeJS.Timeout | undefined
    await Promise.race([loading, new Promise((r) => (timer = setTimeout(r, ms)))])
    clearTimeout(timer)
    const have = this.ready.get(datasetId)
    return have && have.data.version === (await this.store.info(datasetId)).version ? have : null
  }

  private start(datasetId: string, version: number): Promise<void> {
    const running = this.building.get(datasetId)
    if (running && running.version === version) return running.done
    const have = this.ready.get(datasetId)
    if (have && have.data.version === version) return Promise.resolve()
    const dataset = this.store.dataset(datasetId)
    if (!dataset) return Promise.resolve()
    const loading = this.load(dataset)
    this.loading.set(datasetId, loading)
    const done = loading
      .then((loaded) => {
        if (loaded) return
        const build = this.queue
          .then(async () => {
            if (this.useWorker()) await this.buildInWorker(dataset)
            else await this.buildInline(datasetId, version)
          })
          .catch(() => undefined)
        this.queue = build
        return build
      })
      .then(() => this.loadArchives(datasetId))
      .finally(() => {
        if (this.building.get(datasetId)?.done === done) this.building.delete(datasetId)
      })
    this.building.set(datasetId, { version, done })
    return done
  }

  /**
   * Reads the dataset's tile archives; when one is missing or stale (data imported by an older
   * version, first start after a seed) it is rendered in a worker in the background, then read.
   */
  private async loadArchives(datasetId: string): Promise<void> {
    if (this.store.location === null) return this.renderArchivesInMemory(datasetId)
    const missing = await this.archives.load(datasetId)
    const { version } = await this.store.info(datasetId)
    const key = `${datasetId}@${version}`
    if (missing.length === 0 || !this.useWorker() || this.rendering.has(key)) return
    this.rendering.add(key)
    this.queue = this.queue
      .then(() => this.renderInWorker(datasetId))
      .then(() => this.archives.load(datasetId))
      .then(() => undefined)
      .catch(() => undefined)
  }

  /**
   * Without a store file (PostgreSQL) in background mode: the archives of datasets up to
   * `inMemoryMaxFeatures` are rendered here from the tile data just built (queued behind builds, in slices between requests), so
   * their tiles are served from memory as from SQLite's archive files.
   */
  private async renderArchivesInMemory(datasetId: string): Promise<void> {
    const ready = this.ready.get(datasetId)
    if (!ready || !this.background()) return
    const render = this.queue
      .then(() => this.archives.renderInMemory(datasetId, ready))
      .catch(() => undefined)
    this.queue = render
    await render
  }

  private renderInWorker(datasetId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      // The tile data in hand goes along (shared memory when the pool runs: no copy of a large
      // dataset's data); without it the worker builds it from the store file.
      const held = this.ready.get(datasetId)?.data
      const worker = startWorker('tileArchiveWorker', {
        file: this.store.location,
        catalog: this.store.catalog,
        datasetId,
        limits: serverSettings().tiles,
        data: held && held.coords.buffer instanceof SharedArrayBuffer ? held : null,
      })
      worker.once('message', () => resolve())
      worker.once('error', reject)
      worker.once('exit', () => resolve())
    })
  }

  /** The tile data kept by an earlier build of the same stored data, if any. */
  private async load(dataset: DatasetDef): Promise<boolean> {
    try {
      const file = this.store.location ? tileDataPath(this.store.location, dataset.id) : null
      if (!file || !this.useWorker()) return false
      const info = await this.store.info(dataset.id)
      const data = await readTileData(file, info, this.pool !== null)
      if (!data || data.version !== (await this.store.info(dataset.id)).version) return false
      this.accept(data)
      return true
    } finally {
      this.loading.delete(dataset.id)
    }
  }

  /** Builds in process from the store's rows; asks for one dataset and version share the build. */
  private buildInline(datasetId: string, version: number): Promise<ReadyTileData> {
    const running = this.inline.get(datasetId)
    if (running && running.version === version) return running.done
    const dataset = this.store.dataset(datasetId) as DatasetDef
    // Without a file no worker can read the rows: build here in slices, so requests go on being
    // answered (1,000,000 buildings take seconds). With one, at once (as before the first warm-up).
    const build = this.store.location === null ? buildTileDataYielding : buildTileData
    const done = (async () => {
      this.builds += 1
      const rows = await this.store.tileRows(datasetId)
      return this.accept(await build(dataset, rows))
    })().finally(() => {
      if (this.inline.get(datasetId)?.done === done) this.inline.delete(datasetId)
    })
    this.inline.set(datasetId, { version, done })
    return done
  }

  private buildInWorker(dataset: DatasetDef): Promise<void> {
    return new Promise((resolve, reject) => {
      const file = this.store.location as string
      const worker = startWorker('tileDataWorker', { file, dataset, saveTo: tileDataPath(file, dataset.id) })
      let got = false
      worker.once('message', (data: TileData) => {
        got = true
        this.accept(data)
        resolve()
      })
      worker.once('error', (err) => {
        this.workerFailed = true
        this.buildInline(dataset.id, -1).then(
          () => resolve(),
          (e: unknown) => reject(e instanceof Error ? e : err),
        )
      })
      worker.once('exit', (code) => {
        if (!got && code !== 0) reject(new Error(`tile index worker exited with ${code}`))
      })
    })
  }

  private accept(built: TileData): ReadyTileData {
    const data = this.pool ? sharedTileData(built) : built
    this.pool?.share(data)
    const ready = { data, index: spatialIndex(data) }
    const have = this.ready.get(data.dataset)
    if (!have || have.data.version <= data.version) this.ready.set(data.dataset, ready)
    return ready
  }
}

const perStore = new WeakMap<Store, TileIndexes>()

/** The one TileIndexes of a store (shared by the tile routes and main.ts's warm-up). */
export function tileIndexesOf(store: Store): TileIndexes {
  let t = perStore.get(store)
  if (!t) {
    t = new TileIndexes(store, { build: 'inline' })
    perStore.set(store, t)
  }
  return t
}
