import { describe, expect, it } from 'vitest'
import { readFireUrl, roundPoint, writeFireUrl } from './fireUrl'

describe('fire what-if share parameters', () => {
  it('round-trips a what-if and keeps the map view', () => {
    const search = writeFireUrl('?c=-106.5,35.1&z=9', { lon: -106.123456, lat: 35.5, hour: 7, hours: 3 })
    expect(search).toBe('?c=-106.5,35.1&z=9&fireAt=-106.12346,35.50000&fireHour=7&fireHours=3')
    expect(readFireUrl(search)).toEqual({ lon: -106.12346, lat: 35.5, hour: 7, hours: 3 })
  })

  it('leaves out the default hours and removes everything on clear', () => {
    expect(writeFireUrl('', { lon: 1, lat: 2, hour: 0, hours: 6 })).toBe('?fireAt=1.00000,2.00000&fireHour=0')
    expect(writeFireUrl('?z=3&fireAt=1,2&fireHour=4&fireHours=2', null)).toBe('?z=3')
  })

  it('refuses malformed values instead of guessing', () => {
    for (const bad of [
      '?fireAt=1',
      '?fireAt=a,b',
      '?fireAt=200,1',
      '?fireAt=1,2,3',
      '?fireAt=1e3,2',
      '?fireAt=Infinity,1',
    ])
      expect(readFireUrl(bad), bad).toBeNull()
    expect(readFireUrl('?fireAt=1,2&fireHour=-1&fireHours=99')).toEqual({ lon: 1, lat: 2 })
  })

  it('rounds a picked point as the URL does', () => {
    const [lon, lat] = roundPoint(-106.1234567, 35.0000049)
    expect(readFireUrl(writeFireUrl('', { lon, lat }))).toEqual({ lon, lat })
  })
})
