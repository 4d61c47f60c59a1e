import { describe, expect, it } from 'vitest'
import { changeTimes, offAt, replayRange, stateAt, type CircuitHistory } from './eventReplay'

const H = 3_600_000
const a: CircuitHistory = { circuit: 'A', periods: [{ off: 2 * H, patrolled: 4 * H, on: 5 * H }] }
/** Switched off twice: 1h–3h and again from 6h, still off. */
const b: CircuitHistory = {
  circuit: 'B',
  periods: [
    { off: 1 * H, patrolled: null, on: 3 * H },
    { off: 6 * H, patrolled: null, on: null },
  ],
}
const never: CircuitHistory = { circuit: 'C', periods: [] }

describe('stateAt', () => {
  it('walks a circuit through on, off, patrolled and restored', () => {
    expect(stateAt(a, 1 * H)).toBe('on')
    expect(stateAt(a, 2 * H)).toBe('off')
    expect(stateAt(a, 4 * H)).toBe('patrolled')
    expect(stateAt(a, 5 * H - 1)).toBe('patrolled')
    expect(stateAt(a, 5 * H)).toBe('restored')
    expect(stateAt(never, 10 * H)).toBe('on')
  })

  it('follows a circuit switched off a second time', () => {
    expect(stateAt(b, 2 * H)).toBe('off')
    expect(stateAt(b, 4 * H)).toBe('restored')
    expect(stateAt(b, 6 * H)).toBe('off')
    expect(stateAt(b, 100 * H)).toBe('off')
  })
})

describe('offAt', () => {
  const all = [a, b, never]
  it('lists the circuits de-energized at each moment (patrolled lines are still off)', () => {
    expect(offAt(all, 0)).toEqual([])
    expect(offAt(all, 1.5 * H)).toEqual(['B'])
    expect(offAt(all, 2.5 * H)).toEqual(['A', 'B'])
    expect(offAt(all, 3.5 * H)).toEqual(['A'])
    expect(offAt(all, 4.5 * H)).toEqual(['A'])
    expect(offAt(all, 5.5 * H)).toEqual([])
    expect(offAt(all, 7 * H)).toEqual(['B'])
  })
})

describe('changeTimes and replayRange', () => {
  it('lists each change once, ascending', () => {
    expect(changeTimes([a, b, never])).toEqual([1, 2, 3, 4, 5, 6].map((h) => h * H))
  })

  it('ends at the last change once every circuit is back on, else at now', () => {
    expect(replayRange(0, [a], 99 * H)).toEqual([0, 5 * H])
    expect(replayRange(0, [a, b], 99 * H)).toEqual([0, 99 * H])
    expect(replayRange(3 * H, [a], 99 * H)).toEqual([2 * H, 5 * H])
    expect(replayRange(7 * H, [], 7 * H)).toEqual([7 * H, 7 * H + 60_000])
  })
})
