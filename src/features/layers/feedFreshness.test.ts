import { describe, expect, it } from 'vitest'
import { badgesFor, formatAge, layerBadge, type FeedFreshness } from './feedFreshness'

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

describe('one badge per layer, however many feeds write it', () => {
  const layer = 'viirs_thermal_hotspot'
  const firms = (id: string, title: string, over: Partial<FeedFreshness> = {}): FeedFreshness => ({
    ...viirs,
    id,
    title,
    everyMinutes: 60,
    ...over,
  })
  const unset = {
    lastAttemptAt: '2026-07-30T11:59:00.000Z',
    lastSuccessAt: null,
    newestDataAt: null,
    lastError: "environment variable FIRMS_MAP_KEY is not set (needed by the feed's source)",
  }
  it('shows the worst state, counted, and every feed with its reason worst first', () => {
    const all = [
      firms('firms-viirs', 'VIIRS', unset),
      firms('firms-viirs-noaa20', 'VIIRS NOAA-20', unset),
      firms('firms-viirs-noaa21', 'VIIRS NOAA-21', unset),
      firms('firms-modis', 'MODIS', unset),
    ]
    const badge = layerBadge(layer, all, NOW)
    expect(badge).toMatchObject({ text: '4 feeds failed', tone: 'failed' })
    expect(badge?.feeds.map((f) => [f.text, f.title])).toEqual([
      ['VIIRS · never updated', `Last update failed: ${unset.lastError}`],
      ['VIIRS NOAA-20 · never updated', `Last update failed: ${unset.lastError}`],
      ['VIIRS NOAA-21 · never updated', `Last update failed: ${unset.lastError}`],
      ['MODIS · never updated', `Last update failed: ${unset.lastError}`],
    ])
    // One failed among fresh and stale ones: red, the failed one listed first.
    const mixed = layerBadge(
      layer,
      [
        firms('firms-viirs', 'VIIRS', { everyMinutes: 30 }),
        firms('firms-viirs-noaa20', 'VIIRS NOAA-20'),
        firms('firms-modis', 'MODIS', unset),
      ],
      NOW,
    )
    expect(mixed).toMatchObject({ text: '1 of 3 feeds failed', tone: 'failed' })
    expect(mixed?.feeds.map((f) => f.tone)).toEqual(['failed', 'stale', 'fresh'])
    // Stale beats fresh; all fresh shows the oldest success's age.
    expect(
      layerBadge(
        layer,
        [firms('firms-viirs', 'VIIRS', { everyMinutes: 30 }), firms('firms-modis', 'MODIS')],
        NOW,
      ),
    ).toMatchObject({ text: '1 of 2 feeds stale', tone: 'stale' })
    expect(
      layerBadge(
        layer,
        [
          firms('firms-viirs', 'VIIRS', { lastSuccessAt: '2026-07-30T11:55:00.000Z' }),
          firms('firms-modis', 'MODIS'),
        ],
        NOW,
      ),
    ).toMatchObject({ text: '2 feeds · 2 h ago', tone: 'fresh' })
  })
  it('one feed keeps its own text; a layer no feed has run has no badge', () => {
    expect(layerBadge(layer, [viirs], NOW)).toMatchObject({ text: 'VIIRS · 2 h ago', tone: 'stale' })
    expect(layerBadge('buildings', [viirs], NOW)).toBeNull()
    expect(layerBadge(layer, [{ ...viirs, lastAttemptAt: null }], NOW)).toBeNull()
  })
})
