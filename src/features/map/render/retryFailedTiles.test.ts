import { describe, expect, it } from 'vitest'
import { retryFailedTiles, type RetryableTileLayer } from './retryFailedTiles'

type Handler = (e: { tile: HTMLElement; coords: unknown }) => void

function fakeLayer() {
  let handler: Handler | null = null
  const layer: RetryableTileLayer & { fail(tile: HTMLElement, coords: { z: number }): void } = {
    on: (_type, fn) => (handler = fn),
    getTileUrl: (coords: never) => `/api/sources/s/tiles/${(coords as { z: number }).z}/1/2.png`,
    fail: (tile, coords) => handler?.({ tile, coords }),
  }
  return layer
}

function timers() {
  const queue: { fn: () => void; ms: number }[] = []
  return {
    schedule: (fn: () => void, ms: number) => queue.push({ fn, ms }),
    runAll: () => queue.splice(0).forEach((t) => t.fn()),
    delays: () => queue.map((t) => t.ms),
  }
}

const tile = (connected = true) => ({ src: '', isConnected: connected }) as unknown as HTMLImageElement

describe('retryFailedTiles', () => {
  it('asks a failed tile again after 2 s, then after 8 s, then leaves it failed', () => {
    const layer = fakeLayer()
    const t = timers()
    retryFailedTiles(layer, undefined, t.schedule)
    const img = tile()
    layer.fail(img, { z: 9 })
    expect(t.delays()).toEqual([2000])
    expect(img.src).toBe('')
    t.runAll()
    expect(img.src).toBe('/api/sources/s/tiles/9/1/2.png')
    layer.fail(img, { z: 9 })
    expect(t.delays()).toEqual([8000])
    t.runAll()
    layer.fail(img, { z: 9 })
    expect(t.delays()).toEqual([])
  })

  it('counts each tile on its own, and leaves a tile Leaflet removed meanwhile', () => {
    const layer = fakeLayer()
    const t = timers()
    retryFailedTiles(layer, [100], t.schedule)
    const gone = tile(false)
    const other = tile()
    layer.fail(gone, { z: 3 })
    layer.fail(other, { z: 4 })
    expect(t.delays()).toEqual([100, 100])
    t.runAll()
    expect(gone.src).toBe('')
    expect(other.src).toBe('/api/sources/s/tiles/4/1/2.png')
  })
})
