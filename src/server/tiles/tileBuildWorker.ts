// Worker thread of the TilePool: keeps the shared tile data of each dataset and builds tiles
// (also aggregated tiles and tiles read from the store, over its own read-only connection).
import zlib from 'node:zlib'
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import type { TileIndex } from './pickFeatures'
import type { Catalog } from '../store/catalog'
import { SqliteStore } from '../store/sqliteStore'
import { aggregatedTile, buildTile, type TileLimits, type VersionedTile } from './buildTile'
import { encodeSlice, type BuiltTile, type SlicePlan, type TilePick } from './encodeSlice'
import { spatialIndex, type TileData } from './tileData'

type Message =
  | { type: 'data'; data: TileData }
  | {
      type: 'job'
      id: number
      dataset: string
      version: number
      z: number
      x: number
      y: number
      plan: SlicePlan
      pick?: TilePick
    }
  | { type: 'cells'; id: number; dataset: string; x: number; y: number; cells: Int32Array }
  | {
      type: 'store'
      id: number
      source: string
      z: number
      x: number
      y: number
      limits: TileLimits
      scale: number
    }

const datasets = new Map<string, { data: TileData; index: TileIndex | null }>()
const { file, catalog } = workerData as { file: string | null; catalog: Catalog }
let store: SqliteStore | null = null

function reply(id: number, t: BuiltTile & { version?: number }): void {
  const gz = t.features > 0 ? new Uint8Array(zlib.gzipSync(t.pbf, { level: 1 })) : null
  // Both arrays own their buffers (vt-pbf's output, a copy of the gzip): moved, not copied.
  const transfer = [t.pbf.buffer, gz?.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer)
  parentPort?.postMessage(
    { id, pbf: t.pbf, gz, features: t.features, mode: t.mode, version: t.version },
    transfer,
  )
}

async function fromStore(m: Extract<Message, { type: 'store' }>): Promise<VersionedTile> {
  const source = catalog.sources.find((s) => s.id === m.source)
  if (!file || !source) throw new Error(`no store or source ${m.source}`)
  store ??= new SqliteStore(new Database(file, { readonly: true, fileMustExist: true }), catalog)
  return buildTile(store, source, m.z, m.x, m.y, m.limits, m.scale, null)
}

function fail(id: number, e: unknown): void {
  parentPort?.postMessage({ id, error: e instanceof Error ? e.message : String(e) })
}

parentPort?.on('message', (m: Message) => {
  if (m.type === 'data') {
    datasets.set(m.data.dataset, { data: m.data, index: spatialIndex(m.data) })
    return
  }
  if (m.type === 'cells') {
    try {
      const cells = Array.from({ length: m.cells.length / 3 }, (_, i) => ({
        cx: m.cells[3 * i] as number,
        cy: m.cells[3 * i + 1] as number,
        n: m.cells[3 * i + 2] as number,
      }))
      reply(m.id, aggregatedTile(m.dataset, m.x, m.y, cells))
    } catch (e) {
      fail(m.id, e)
    }
    return
  }
  if (m.type === 'store') {
    fromStore(m)
      .then((t) => reply(m.id, t))
      .catch((e: unknown) => fail(m.id, e))
    return
  }
  try {
    const d = datasets.get(m.dataset)
    if (!d || d.data.version !== m.version) {
      parentPort?.postMessage({ id: m.id, error: 'not-ready' })
      return
    }
    reply(m.id, encodeSlice(d.data, d.index, m.dataset, m.z, m.x, m.y, m.plan, m.pick))
  } catch (e) {
    fail(m.id, e)
  }
})
