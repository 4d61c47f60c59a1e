import { describe, expect, it } from 'vitest'
import { serviceTileTemplate } from './smokeService'

describe('serviceTileTemplate', () => {
  it('uses the last model run and the first inventory entry', () => {
    const config = {
      modelRuns: [{ id: '2025030500' }, { id: '2025030513' }],
      inventory: [
        { layer: 'smoke', tileUrl: '/api/tiles/smoke/png/{z}/{x}/{y}?run={run}&hour={hour}', defaultHour: 6 },
        { layer: 'other', tileUrl: '/x/{z}/{x}/{y}' },
      ],
    }
    expect(serviceTileTemplate(config)).toEqual({
      layer: 'smoke',
      url: '/api/tiles/smoke/png/{z}/{x}/{y}?run=2025030513&hour=6',
    })
  })

  it('gives null for an empty or malformed config', () => {
    expect(serviceTileTemplate({ modelRuns: [], inventory: [] })).toBeNull()
    expect(serviceTileTemplate({ nope: 1 })).toBeNull()
    expect(serviceTileTemplate(null)).toBeNull()
  })
})
