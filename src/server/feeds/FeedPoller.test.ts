import { describe, expect, it } from 'vitest'
import { nextPollDelay } from './FeedPoller'

describe('nextPollDelay', () => {
  it('polls on the schedule after a success', () => {
    expect(nextPollDelay(30, 0)).toBe(30 * 60_000)
  })
  it('retries a failing feed after 1, 2, 4 … minutes, never later than its schedule', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => nextPollDelay(30, n) / 60_000)).toEqual([1, 2, 4, 8, 16, 30])
    expect(nextPollDelay(5, 9) / 60_000).toBe(5)
  })
})
