import { parentPort } from 'node:worker_threads'
import { fireLandscape, FireLandscapeError, type FireLandscape } from '../fire/landscape'
import { BlockCache, simulateFire } from '../fire/simulate'
import type { FireSimAnswer, FireSimRequest } from './fireSimProtocol'

// The what-if worker thread (fireSimPool.ts): keeps the landscape (sent once per version of its grids)
// and a fire-behaviour cache shared by successive what-ifs, and answers one simulation at a time.
let current: { key: string; landscape: FireLandscape; cache: BlockCache } | null = null

parentPort?.on('message', (msg: FireSimRequest) => {
  if (msg.type === 'landscape') {
    current = { key: msg.key, landscape: fireLandscape(msg.data), cache: new BlockCache() }
    return
  }
  let answer: FireSimAnswer
  try {
    if (!current || current.key !== msg.key) throw new Error(`no landscape ${msg.key} in the worker`)
    const t0 = performance.now()
    const r = simulateFire(
      current.landscape,
      { ignitions: [[msg.lon, msg.lat]], start: msg.hour, hours: msg.hours, cellSizeM: msg.cellSizeM },
      current.cache,
    )
    answer = {
      id: msg.id,
      ok: true,
      outcome: {
        isochrones: r.isochrones,
        perimeter: r.perimeter,
        burnedAcres: r.burnedAcres,
        burnedAcresByHour: r.burnedAcresByHour,
        ignited: r.ignited,
        truncated: r.truncated,
        cellSizeM: r.cellSizeM,
        provenance: r.provenance,
        simulateMs: performance.now() - t0,
      },
    }
  } catch (e) {
    answer = {
      id: msg.id,
      ok: false,
      error: e instanceof Error ? e.message : String(e),
      landscapeError: e instanceof FireLandscapeError,
    }
  }
  parentPort?.postMessage(answer)
})
