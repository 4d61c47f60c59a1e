import { parentPort } from 'node:worker_threads'
import { fireLandscape, type FireLandscape } from '../landscape'
import { BlockCache } from '../simulate'
import { indexAssets, runIgnitions, type IndexedAssets } from '../consequence'
import type { FireRunInputs, FireWorkerAnswer, FireWorkerReady, FireWorkerRequest } from './fireBatchProtocol'
import { loadRunInputs } from './fireRunInputs'
import { lowerThreadPriority } from './threadPriority'

// One worker thread of a server's fire batch pool (fireBatchPool.ts): reads the run's inputs (from
// the store on a connection of its own when they come as a source, fireRunInputs.ts), keeps the
// landscape, indexed assets and fire-behaviour cache, and answers each batch's per-ignition results.
interface Current {
  inputs: FireRunInputs
  landscape: FireLandscape
  assets: IndexedAssets
  cache: BlockCache
}
let current: { key: string; ready: Promise<Current> } | null = null

async function prepare(inputs: FireRunInputs): Promise<Current> {
  const data = inputs.source
    ? await loadRunInputs(inputs.source)
    : inputs.landscape && inputs.assets
      ? { landscape: inputs.landscape, assets: inputs.assets }
      : null
  if (!data) throw new Error(`run ${inputs.key}: inputs carry neither a source nor data`)
  return {
    inputs,
    landscape: fireLandscape(data.landscape),
    assets: indexAssets(data.assets),
    cache: new BlockCache(),
  }
}

// Below the server thread's priority: tiles and sign-in get a core first (docs/fire.md).
parentPort?.postMessage({ thread: lowerThreadPriority() })
parentPort?.on('message', (msg: FireWorkerRequest) => void handle(msg))

async function handle(msg: FireWorkerRequest): Promise<void> {
  if (msg.type === 'inputs') {
    const key = msg.inputs.key
    const ready = prepare(msg.inputs)
    current = { key, ready }
    // Said once read (the pool's prepare waits for it); a failure is also answered to the batches.
    ready.then(
      () => parentPort?.postMessage({ ready: key, ok: true } satisfies FireWorkerReady),
      (err: unknown) =>
        parentPort?.postMessage({
          ready: key,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        } satisfies FireWorkerReady),
    )
    return
  }
  let answer: FireWorkerAnswer
  try {
    if (!current || current.key !== msg.key) throw new Error(`no inputs for run ${msg.key}`)
    const loading = current
    const run = await loading.ready.catch((err: unknown) => {
      // Inputs that could not be read are read again with the next batch (the pool sends them again).
      if (current === loading) current = null
      throw err
    })
    const { inputs } = run
    const results = runIgnitions(
      run.landscape,
      msg.ignitions.map((i) => ({ ...i, lineId: i.ignitionId.split(':')[0] ?? i.ignitionId })),
      msg.startHour,
      inputs.hours,
      run.assets,
      {
        cache: run.cache,
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
      cache: { ...run.cache.stats },
    }
  } catch (err) {
    answer = { id: msg.id, ok: false, error: err instanceof Error ? err.message : String(err) }
  }
  parentPort?.postMessage(answer)
}
