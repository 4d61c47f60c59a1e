import os from 'node:os'
import type { Worker } from 'node:worker_threads'
import type { Catalog } from '../store/catalog'
import type { AggregateCell } from '../store/Store'
import type { TileLimits } from './buildTile'
import type { BuiltTile, SlicePlan, TilePick } from './encodeSlice'
import { startWorker } from './startWorker'
import type { TileData } from './tileData'

export interface PooledTile extends BuiltTile {
  /** gzip (level 1) of `pbf`, made in the worker; null for an empty tile. */
  gz: Uint8Array | null
  /** `runStore`: the dataset version of the rows the worker read (one snapshot with them). */
  version?: number
}

type Reply = { id: number; error?: string } & Partial<PooledTile>

interface Slot {
  worker: Worker
  load: number
}

/**
 * Worker threads that cut, encode and gzip tiles from the datasets' tile data, which they share
 * with the main thread (SharedArrayBuffer, no copies): the event loop only routes requests, and
 * two requests build on two cores. `run` answers null when the pool cannot build the tile (its
 * data is not there yet, or the workers failed): the caller builds it in process.
 */
export class TilePool {
  private readonly slots: Slot[] = []
  private readonly jobs = new Map<number, (reply: Reply | null) => void>()
  private nextId = 1
  private failed = false

  constructor(
    /** The store file the workers open read-only (aggregated tiles, tiles before the data is ready). */
    store: { file: string | null; catalog: Catalog },
    size = Math.max(1, Math.min(2, os.availableParallelism())),
  ) {
    for (let i = 0; i < size; i++) {
      const worker = startWorker('tileBuildWorker', store)
      const slot: Slot = { worker, load: 0 }
      worker.unref()
      worker.on('message', (reply: Reply) => {
        slot.load -= 1
        const done = this.jobs.get(reply.id)
        this.jobs.delete(reply.id)
        done?.(reply)
      })
      worker.on('error', () => this.fail())
      worker.on('exit', () => this.fail())
      this.slots.push(slot)
    }
  }

  get usable(): boolean {
    return !this.failed
  }

  /** Hands a dataset's tile data (SharedArrayBuffer-backed, see sharedTileData) to every worker. */
  share(data: TileData): void {
    for (const s of this.slots) s.worker.postMessage({ type: 'data', data })
  }

  run(
    dataset: string,
    version: number,
    z: number,
    x: number,
    y: number,
    plan: SlicePlan,
    pick?: TilePick,
  ): Promise<PooledTile | null> {
    if (!pick) return this.send({ type: 'job', dataset, version, z, x, y, plan })
    // The feature positions travel as one moved buffer; the feature data is shared, never copied.
    const picked = Int32Array.from(pick.picked)
    const moved = { picked, matched: pick.matched }
    return this.send({ type: 'job', dataset, version, z, x, y, plan, pick: moved }, [picked.buffer])
  }

  private send(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<PooledTile | null> {
    if (this.failed || this.slots.length === 0) return Promise.resolve(null)
    let slot = this.slots[0] as Slot
    for (const s of this.slots) if (s.load < slot.load) slot = s
    const id = this.nextId++
    slot.load += 1
    return new Promise((resolve) => {
      this.jobs.set(id, (reply) => {
        if (!reply || reply.error || !reply.pbf) return resolve(null)
        resolve({
          pbf: reply.pbf,
          gz: reply.gz ?? null,
          features: reply.features ?? 0,
          mode: reply.mode ?? 'full',
          ...(reply.version === undefined ? {} : { version: reply.version }),
        })
      })
      slot.worker.postMessage({ ...message, id }, transfer)
    })
  }

  /** Builds a tile from the store in a worker (aggregated cells, or features read by bbox). */
  runStore(
    source: string,
    z: number,
    x: number,
    y: number,
    limits: TileLimits,
    scale: number,
  ): Promise<PooledTile | null> {
    return this.send({ type: 'store', source, z, x, y, limits, scale })
  }

  /**
   * Builds an aggregated tile from its cells (read by this thread: a store without a file, whose
   * cells the workers cannot read themselves). The cells travel as one moved buffer.
   */
  runCells(
    dataset: string,
    x: number,
    y: number,
    cells: readonly AggregateCell[],
  ): Promise<PooledTile | null> {
    const flat = new Int32Array(cells.length * 3)
    cells.forEach((c, i) => flat.set([c.cx, c.cy, c.n], i * 3))
    return this.send({ type: 'cells', dataset, x, y, cells: flat }, [flat.buffer])
  }

  async close(): Promise<void> {
    this.failed = true
    await Promise.all(this.slots.map((s) => s.worker.terminate()))
  }

  private fail(): void {
    this.failed = true
    for (const done of this.jobs.values()) done(null)
    this.jobs.clear()
  }
}
