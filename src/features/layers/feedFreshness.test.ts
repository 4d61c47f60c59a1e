import { describe, expect, it } from 'vitest'
import { badgesFor, formatAge, type FeedFreshness } from './feedFreshness'

const NOW = Date.parse('2026-07-30T12:00:00Z')
const viirs: FeedFreshness = {
  id: 'firms-viirs',
  title: 'VIIRS',
  layers: ['viirs_thermal_hotspot'],
  everyMinutes: 30,
  lastAttemptAt: '2026-07-30T10:00:00.000Z',
  lastSuccessAt: '2026-07-30T10:00:00.000Z',
  newestDataAt: '2026-07-30T09:15:00.000Z',
  lastError: null,
}

describe('freshness badge', () => {
  it('formats ages', () => {
    expect(formatAge(20_000)).toBe('just now')
    expect(formatAge(5 * 60_000)).toBe('5 min ago')
    expect(formatAge(2 * 3_600_000 + 59 * 60_000)).toBe('2 h ago')
    expect(formatAge(72 * 3_600_000)).toBe('3 d ago')
  })
  it('shows source and age; amber past twice the schedule; red with the error when the last run failed', () => {
    expect(badgesFor('viirs_thermal_hotspot', [viirs], NOW)).toEqual([
      expect.objectContaining({ text: 'VIIRS · 2 h ago', tone: 'stale' }),
    ])
    expect(badgesFor('viirs_thermal_hotspot', [{ ...viirs, everyMinutes: 60 }], NOW)[0]?.tone).toBe('fresh')
    const failed = badgesFor(
      'viirs_thermal_hotspot',
      [{ ...viirs, lastAttemptAt: '2026-07-30T11:50:00.000Z', lastError: 'HTTP 503' }],
      NOW,
    )[0]
    expect(failed).toMatchObject({
      text: 'VIIRS · 2 h ago',
      tone: 'failed',
      title: 'Last update failed: HTTP 503',
    })
  })
  it('shows nothing for other layers or feeds that never ran', () => {
    expect(badgesFor('buildings', [viirs], NOW)).toEqual([])
    expect(
      badgesFor('viirs_thermal_hotspot', [{ ...viirs, lastAttemptAt: null, lastSuccessAt: null }], NOW),
    ).toEqual([])
  })
})
