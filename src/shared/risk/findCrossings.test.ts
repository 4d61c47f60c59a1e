import { describe, expect, it } from 'vitest'
import { findCrossings } from './findCrossings'

describe('findCrossings', () => {
  it('finds upward and downward crossings at the earlier point', () => {
    expect(findCrossings([0.5, 0.7, 0.85, 0.9, 0.6, 0.5], 0.8)).toEqual([
      { index: 1, direction: 'up' },
      { index: 3, direction: 'down' },
    ])
  })

  it('counts touching the threshold exactly as reaching it', () => {
    expect(findCrossings([0.7, 0.8, 0.7], 0.8)).toEqual([
      { index: 0, direction: 'up' },
      { index: 1, direction: 'down' },
    ])
    expect(findCrossings([0.9, 0.8, 0.85], 0.8)).toEqual([])
  })

  it('does not mark the start of a series that starts above', () => {
    expect(findCrossings([0.95, 0.9, 0.82, 0.79, 0.5], 0.8)).toEqual([{ index: 2, direction: 'down' }])
    expect(findCrossings([0.8, 0.81], 0.8)).toEqual([])
  })

  it('finds nothing in a series that stays on one side', () => {
    expect(findCrossings([0.1, 0.79, 0.5], 0.8)).toEqual([])
    expect(findCrossings([], 0.8)).toEqual([])
    expect(findCrossings([0.9], 0.8)).toEqual([])
  })

  it('skips pairs with a missing value', () => {
    expect(findCrossings([0.5, Number.NaN, 0.9, 0.95, 0.1], 0.8)).toEqual([{ index: 3, direction: 'down' }])
  })
})
