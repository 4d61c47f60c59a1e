import type { Awaitable } from '../store/Awaitable'
import type { DatasetInfo } from '../store/Store'

/** What the sync needs of the store: the datasets, their stored version, and cache invalidation. */
export interface SyncedStore {
  readonly catalog: { readonly datasets: readonly { readonly id: string }[] }
  info(id: string): Awaitable<DatasetInfo>
  datasetReplaced(id: string): Awaitable<void>
}

/**
 * Brings this server up to date with a dataset replaced through another server or a CLI: forget
 * the store's cached answers for it (`datasetReplaced`), then, when its stored version moved,
 * `refresh(id, version)` (tile data rebuilt, stale tiles dropped). Changes are handled one at a
 * time, in arrival order; a notice for a version already handled does nothing.
 */
export class DatasetSync {
  private readonly known = new Map<string, number>()
  private queue: Promise<void> = Promise.resolve()
  /** Datasets refreshed since start (tests watch it). */
  refreshed = 0

  constructor(
    private readonly store: SyncedStore,
    private readonly refresh: (id: string, version: number) => Awaitable<void>,
    private readonly warn: (message: string, err: unknown) => void = () => undefined,
  ) {}

  /** Remembers the versions this server starts with (so the first re-check refreshes nothing). */
  async baseline(): Promise<void> {
    for (const d of this.store.catalog.datasets) this.known.set(d.id, (await this.store.info(d.id)).version)
  }

  /** A notice: dataset `id` was replaced. Resolves when it has been handled. */
  changed(id: string): Promise<void> {
    if (!this.store.catalog.datasets.some((d) => d.id === id)) return this.queue
    return this.enqueue(() => this.check(id))
  }

  /** Re-checks every dataset (after a reconnect: notifications may have been missed). */
  resync(): Promise<void> {
    return this.enqueue(async () => {
      for (const d of this.store.catalog.datasets) await this.check(d.id)
    })
  }

  /** Resolves when everything queued so far is handled. */
  idle(): Promise<void> {
    return this.queue
  }

  private enqueue(job: () => Promise<void>): Promise<void> {
    const next = this.queue.then(job).catch((err: unknown) => this.warn('dataset change not applied', err))
    this.queue = next
    return next
  }

  private async check(id: string): Promise<void> {
    await this.store.datasetReplaced(id)
    const version = (await this.store.info(id)).version
    if (this.known.get(id) === version) return
    this.known.set(id, version)
    this.refreshed++
    await this.refresh(id, version)
  }
}
