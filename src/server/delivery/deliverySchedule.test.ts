import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DeliverySettings } from '../../shared/config'
import { Readiness } from '../cluster/readiness'
import type { DeliveryEngine } from './DeliveryEngine'
import { startDeliverySchedule } from './deliverySchedule'

const settings = {
  channels: ['sms'],
  evaluateEveryMinutes: 5,
  watchSeconds: 10,
  digestWindowMinutes: 0,
  reminderIntervalMinutes: 0,
  templates: {},
} as unknown as DeliverySettings

/** A started server's readiness (nothing held). */
function readyNow(): Readiness {
  const r = new Readiness()
  r.markReady()
  return r
}

describe('the delivery schedule', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('evaluates at start, on a dataset version change (an import by another process) and on the schedule', async () => {
    const versions: Record<string, number> = { hotspots: 1, lines: 1 }
    const evaluate = vi.fn()
    const tick = vi.fn(async () => undefined)
    const app = {
      alertsEngine: { datasetIds: () => ['hotspots', 'lines'], evaluate },
      store: { info: (id: string) => ({ version: versions[id] ?? 0 }) },
      log: { warn: vi.fn() },
      readiness: readyNow(),
    } as unknown as FastifyInstance
    const stop = startDeliverySchedule({ app, delivery: { tick } as unknown as DeliveryEngine, settings })
    expect(evaluate).toHaveBeenCalledTimes(0) // not during start-up…
    await vi.advanceTimersByTimeAsync(0)
    expect(evaluate).toHaveBeenCalledTimes(1) // …just after
    await vi.advanceTimersByTimeAsync(10_000)
    expect(evaluate).toHaveBeenCalledTimes(1) // nothing changed: only due sends run
    expect(tick).toHaveBeenCalledTimes(1)
    versions.hotspots = 2
    await vi.advanceTimersByTimeAsync(10_000)
    expect(evaluate).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 20_000)
    expect(evaluate).toHaveBeenCalledTimes(3) // the 5-minute schedule
    stop()
    await vi.advanceTimersByTimeAsync(60 * 60_000)
    expect(evaluate).toHaveBeenCalledTimes(3)
  })

  it('makes its first evaluation only once the server is ready (after the warm-up that follows listen)', async () => {
    // After a restart the first evaluation (every rule over whole datasets) would compete with the
    // warm-up for the server's thread; /api/ready stays 503 until the warm-up is done.
    const evaluate = vi.fn()
    const readiness = new Readiness()
    const warming = readiness.hold()
    readiness.markReady()
    const app = {
      alertsEngine: { datasetIds: () => ['hotspots'], evaluate },
      store: { info: () => ({ version: 1 }) },
      log: { warn: vi.fn() },
      readiness,
    } as unknown as FastifyInstance
    const stop = startDeliverySchedule({
      app,
      delivery: { tick: async () => undefined } as unknown as DeliveryEngine,
      settings,
    })
    await vi.advanceTimersByTimeAsync(30_000)
    expect(readiness.state).toBe('starting')
    expect(evaluate).toHaveBeenCalledTimes(0)
    warming()
    await vi.advanceTimersByTimeAsync(0)
    expect(evaluate).toHaveBeenCalledTimes(1)
    stop()
  })

  it('makes no first evaluation when stopped before the server was ready', async () => {
    const evaluate = vi.fn()
    const readiness = new Readiness()
    const warming = readiness.hold()
    readiness.markReady()
    const app = {
      alertsEngine: { datasetIds: () => [], evaluate },
      store: { info: () => ({ version: 1 }) },
      log: { warn: vi.fn() },
      readiness,
    } as unknown as FastifyInstance
    const stop = startDeliverySchedule({
      app,
      delivery: { tick: async () => undefined } as unknown as DeliveryEngine,
      settings,
    })
    stop()
    warming()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(evaluate).toHaveBeenCalledTimes(0)
  })
})
