import { describe, expect, it } from 'vitest'
import { decodeSharedView, encodeSharedView } from './shareState'

describe('shared view codec', () => {
  it('round-trips centre, zoom, layers and sub-layer', () => {
    const view = {
      center: [-106.51, 36.17] as const,
      zoom: 11,
      visibleLayers: ['psps', 'smoke'],
      subLayers: { psps: 'psps_wind_speed' },
    }
    const search = encodeSharedView(view)
    expect(search).toBe('?c=-106.51000,36.17000&z=11&layers=psps,smoke&sub=psps:psps_wind_speed')
    expect(decodeSharedView(search)).toEqual(view)
  })

  it('keeps unrelated parameters and an empty layer list', () => {
    const search = encodeSharedView({ visibleLayers: [] }, '?tab=2&z=4')
    expect(search).toBe('?tab=2&layers=')
    expect(decodeSharedView(search)).toEqual({ visibleLayers: [] })
  })

  it('drops malformed values', () => {
    expect(decodeSharedView('?c=abc,1&z=99&layers=ok,Bad-Id&sub=psps')).toEqual({ visibleLayers: ['ok'] })
    expect(decodeSharedView('?c=200,10')).toEqual({})
    expect(decodeSharedView('')).toEqual({})
  })
})
