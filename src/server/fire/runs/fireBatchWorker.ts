import { parentPort } from 'node:worker_threads'
import { fireLandscape, type FireLandscape } from '../landscape'
import { BlockCache } from '../simulate'
import { indexAssets, runIgnitions, type IndexedAssets } from '../consequence'
import type { FireRunInputs, FireWorkerAnswer, FireWorkerRequest } from './fireBatchProtocol'

// One worker thread of a server's fire batch pool (fireBatchPool.ts): keeps the run's landscape,
// indexed assets and fire-behaviour cache, and answers each batch's per-ignition results.
let current: {
  inputs: FireRunInputs
  landscape: FireLandscape
  assets: IndexedAssets
  cache: BlockCache
} | null = null

parentPort?.on('message', (msg: FireWorkerRequest) => {
  if (msg.type === 'inputs') {
    const { inputs } = msg
    current = {
      inputs,
      landscape: fireLandscape(inputs.landscape),
      assets: indexAssets(inputs.assets),
      cache: new BlockCache(),
    }
    return
  }
  let answer: FireWorkerAnswer
  try {
    if (!current || current.inputs.key !== msg.key) throw new Error(`no inputs for run ${msg.key}`)
    const { inputs } = current
    const results = runIgnitions(
      current.landscape,
      msg.ignitions.map((i) => ({ ...i, lineId: i.ignitionId.split(':')[0] ?? i.ignitionId })),
      msg.startHour,
      inputs.hours,
      current.assets,
      {
        cache: current.cache,
        ...(inputs.cellSizeM ? { cellSizeM: inputs.cellSizeM } : {}),
        ...(inputs.windowHalfSizeM ? { windowHalfSizeM: inputs.windowHalfSizeM } : {}),
      },
    )
    answer = {
      id: msg.id,
      ok: true,
      results: results.map((r) => ({
        circuit: r.circuit,
        ignitionId: r.ignitionId,
        lon: r.lon,
        lat: r.lat,
        burnedAcres: r.burnedAcres,
        buildings: r.buildings,
        population: r.population,
        criticalFacilities: r.criticalFacilities,
      })),
    }
  } catch (err) {
    answer = { id: msg.id, ok: false, error: err instanceof Error ? err.message : String(err) }
  }
  parentPort?.postMessage(answer)
})
