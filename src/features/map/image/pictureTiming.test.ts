import { describe, expect, it } from 'vitest'
import { LOOK_MS, MAX_WAIT_MS, pictureTiming, QUIET_MS, type TileLayerState } from './pictureTiming'

const settled: TileLayerState = { layers: 5, loading: 0, queued: false }

/** Feeds looks every LOOK_MS from t = 0; answers the time of the first 'take' (or null). */
function firstTake(stateAt: (t: number) => TileLayerState, until = 20_000): number | null {
  const step = pictureTiming(0)
  for (let t = 0; t <= until; t += LOOK_MS) if (step(stateAt(t), t) === 'take') return t
  return null
}

describe('pictureTiming', () => {
  it('takes the picture QUIET_MS after every layer has loaded', () => {
    const t = firstTake((t) => (t < 1200 ? { ...settled, loading: 2 } : settled))
    expect(t).toBe(1200 + QUIET_MS)
  })

  it('counts a layer whose remaining tiles failed or were empty as loaded (no 15 s wait for them)', () => {
    // Leaflet reports such a layer as no longer loading; the picture follows at once.
    expect(firstTake(() => settled)).toBe(QUIET_MS)
  })

  it('waits while there is no tile layer yet or layers are still queued', () => {
    expect(firstTake((t) => (t < 500 ? { ...settled, layers: 0 } : settled))).toBe(500 + QUIET_MS)
    expect(firstTake((t) => (t < 800 ? { ...settled, queued: true } : settled))).toBe(800 + QUIET_MS)
  })

  it('starts the quiet period again when a layer starts loading', () => {
    const t = firstTake((t) => (t === 200 ? { ...settled, loading: 1 } : settled))
    expect(t).toBe(300 + QUIET_MS)
  })

  it('takes the picture anyway after MAX_WAIT_MS when a tile never finishes', () => {
    expect(firstTake(() => ({ ...settled, loading: 1 }))).toBe(MAX_WAIT_MS)
  })
})
