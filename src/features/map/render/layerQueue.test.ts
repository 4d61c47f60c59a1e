import { describe, expect, it } from 'vitest'
import { layerQueueIdle, queueLayerAdd, stackIndex } from './layerQueue'

/** Resolves once every queued addition has run (the queue posts one task per addition). */
async function drained(log: string[], count: number): Promise<void> {
  for (let i = 0; i < 100 && log.filter((e) => !e.startsWith('micro')).length < count; i++)
    await new Promise((resolve) => setTimeout(resolve, 1))
}

describe('queueLayerAdd', () => {
  it('is idle once every addition has run or been cancelled (the map picture waits for it)', async () => {
    const log: string[] = []
    queueLayerAdd(() => log.push('a'))
    const cancel = queueLayerAdd(() => log.push('b'))
    expect(layerQueueIdle()).toBe(false)
    cancel()
    expect(layerQueueIdle()).toBe(false)
    await drained(log, 1)
    expect(layerQueueIdle()).toBe(true)
  })

  it('adds nothing in the caller’s task, then every layer in the order asked', async () => {
    const log: string[] = []
    queueLayerAdd(() => log.push('a'))
    queueLayerAdd(() => log.push('b'))
    queueLayerAdd(() => log.push('c'))
    expect(log).toEqual([])
    await drained(log, 3)
    expect(log).toEqual(['a', 'b', 'c'])
  })

  it('gives each addition a task of its own (what one queued, e.g. a tile, runs before the next)', async () => {
    const log: string[] = []
    for (const name of ['a', 'b', 'c'])
      queueLayerAdd(() => {
        log.push(name)
        queueMicrotask(() => log.push(`micro after ${name}`))
      })
    await drained(log, 3)
    expect(log).toEqual(['a', 'micro after a', 'b', 'micro after b', 'c', 'micro after c'])
  })

  it('never runs a cancelled addition (a layer removed before its turn)', async () => {
    const log: string[] = []
    queueLayerAdd(() => log.push('a'))
    const cancel = queueLayerAdd(() => log.push('b'))
    queueLayerAdd(() => log.push('c'))
    cancel()
    await drained(log, 2)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(log).toEqual(['a', 'c'])
  })

  it('runs an addition queued by another after those already waiting', async () => {
    const log: string[] = []
    queueLayerAdd(() => {
      log.push('a')
      queueLayerAdd(() => log.push('d'))
    })
    queueLayerAdd(() => log.push('b'))
    await drained(log, 3)
    expect(log).toEqual(['a', 'b', 'd'])
  })
})

describe('stackIndex', () => {
  it('stacks later draw orders above earlier ones, all above Leaflet’s default', () => {
    expect(stackIndex(0)).toBeGreaterThanOrEqual(1)
    expect(stackIndex(3)).toBeGreaterThan(stackIndex(2))
  })
})
