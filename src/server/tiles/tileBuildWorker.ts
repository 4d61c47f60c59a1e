// Worker thread of the TilePool: keeps the shared tile data of each dataset and builds tiles.
import zlib from 'node:zlib'
import { parentPort } from 'node:worker_threads'
import Flatbush from 'flatbush'
import { encodeSlice, type SlicePlan, type TilePick } from './encodeSlice'
import type { TileData } from './tileData'

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

const datasets = new Map<string, { data: TileData; index: Flatbush | null }>()

parentPort?.on('message', (m: Message) => {
  if (m.type === 'data') {
    datasets.set(m.data.dataset, { data: m.data, index: m.data.index ? Flatbush.from(m.data.index) : null })
    return
  }
  const d = datasets.get(m.dataset)
  if (!d || d.data.version !== m.version) {
    parentPort?.postMessage({ id: m.id, error: 'not-ready' })
    return
  }
  try {
    const t = encodeSlice(d.data, d.index, m.dataset, m.z, m.x, m.y, m.plan, m.pick)
    const gz = t.features > 0 ? new Uint8Array(zlib.gzipSync(t.pbf, { level: 1 })) : null
    parentPort?.postMessage({ id: m.id, pbf: t.pbf, gz, features: t.features, mode: t.mode })
  } catch (e) {
    parentPort?.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) })
  }
})
