import { describe, expect, it } from 'vitest'
import type { BriefingSources } from './briefingApi'
import { layerTimes } from './layerTimes'

const info: BriefingSources = {
  generatedAt: '2025-03-05T19:00:00Z',
  demo: true,
  window: { start: '2025-03-05T13:00:00Z', hours: 18, currentHour: 6 },
  datasets: [
    {
      id: 'hot',
      title: 'Hotspots',
      version: 3,
      count: 1200,
      updatedAt: '2025-03-05T18:00:00Z',
      newest: { field: 'acquired', value: '2025-03-05T17:42:00Z' },
    },
    { id: 'lines', title: 'Lines', version: 1, count: 64, updatedAt: null, newest: null },
  ],
  grids: [{ id: 'gust', version: 'abcdef0123', hours: 18, source: 'synthetic' }],
}
const opts = { timeZone: 'UTC' }
const texts = (lines: { label: string; text: string }[]) => lines.map((l) => `${l.label}: ${l.text}`)

describe('layer times', () => {
  it("an hourly grid is valid at the window start plus the share URL's hour, else the current hour", () => {
    const now = layerTimes(
      { datasets: [], grids: [{ id: 'gust', hourly: true }] },
      info,
      new Map(),
      null,
      opts,
    )
    expect(texts(now)[0]).toBe('Valid time: Mar 5, 2025, 7:00 PM UTC (forecast hour 6 of 18)')
    const shared = layerTimes(
      { datasets: [], grids: [{ id: 'gust', hourly: true }] },
      info,
      new Map(),
      40,
      opts,
    )
    expect(texts(shared)[0]).toContain('(forecast hour 17 of 18)')
    expect(texts(shared)[1]).toBe('Data: grid gust from synthetic, version abcdef01')
  })

  it('a dataset is valid as of its newest data and fresh as of its last write', () => {
    expect(texts(layerTimes({ datasets: ['hot', 'lines'], grids: [] }, info, new Map(), null, opts))).toEqual(
      [
        'Valid time: newest data Mar 5, 2025, 5:42 PM UTC',
        'Data: Hotspots: 1,200 features, updated Mar 5, 2025, 6:00 PM UTC',
        'Valid time: no time in the data (Lines)',
        'Data: Lines: 64 features, updated never',
      ],
    )
  })

  it('a live feed gives its newest data, last update and last error (marked)', () => {
    const feeds = new Map([
      [
        'hot',
        {
          dataset: 'hot',
          source: 'https://firms',
          lastSuccessAt: '2025-03-05T18:30:00Z',
          newestDataAt: '2025-03-05T18:20:00Z',
          lastError: 'HTTP 503',
        },
      ],
    ])
    const lines = layerTimes({ datasets: ['hot'], grids: [] }, info, feeds, null, opts)
    expect(texts(lines)).toEqual([
      'Valid time: newest data Mar 5, 2025, 6:20 PM UTC',
      'Data: Hotspots: live feed, last updated Mar 5, 2025, 6:30 PM UTC; last error: HTTP 503',
    ])
    expect(lines[1]?.warning).toBe(true)
  })
})
