import { describe, expect, it } from 'vitest'
import { dailyMaxima } from './dailyMaxima'

const MT = 'America/Denver'

describe('dailyMaxima', () => {
  it('keeps the highest score of each Mountain-time day, in calendar order', () => {
    const timestamps = [
      '2025-03-05T18:00:00Z',
      '2025-03-06T06:00:00Z', // 23:00 MST on 5 March
      '2025-03-06T07:00:00Z', // 00:00 MST on 6 March
      '2025-03-06T20:00:00Z',
    ]
    expect(dailyMaxima(timestamps, [0.3, 0.9, 0.2, 0.6], MT)).toEqual([
      { day: '2025-03-05', max: 0.9, index: 1 },
      { day: '2025-03-06', max: 0.6, index: 3 },
    ])
  })

  it('ignores missing scores and extra timestamps', () => {
    const timestamps = ['2025-03-05T18:00:00Z', '2025-03-05T19:00:00Z', '2025-03-07T19:00:00Z']
    expect(dailyMaxima(timestamps, [Number.NaN, 0.4], MT)).toEqual([
      { day: '2025-03-05', max: 0.4, index: 1 },
    ])
  })

  it('returns nothing for an empty series', () => {
    expect(dailyMaxima([], [], MT)).toEqual([])
  })
})
