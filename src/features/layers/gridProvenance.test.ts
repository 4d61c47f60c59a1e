import { describe, expect, it } from 'vitest'
import { layerById } from '../../shared/config'
import { gridsOfLayer, provenanceText, type GridProvenance } from './gridProvenance'

const format = { timeZone: 'UTC', locale: 'en-US' }
const base: GridProvenance = {
  id: 'sustained_wind_next',
  title: 'Sustained wind',
  hours: 3,
  version: 'abc',
  source: 'https://example.test/hrrr.t12z.grib2',
  refTime: '2026-11-27T12:00:00.000Z',
  validTimes: ['2026-11-27T13:00:00.000Z', '2026-11-27T14:00:00.000Z', '2026-11-27T15:00:00.000Z'],
}

describe('grid provenance under a legend', () => {
  it('names the source, the model run and the span of valid times', () => {
    expect(provenanceText(base, format)).toBe(
      'https://example.test/hrrr.t12z.grib2 · run Nov 27, 2026, 12:00 PM UTC · ' +
        'valid Nov 27, 2026, 1:00 PM UTC – Nov 27, 2026, 3:00 PM UTC (3 hours)',
    )
    expect(provenanceText({ ...base, refTime: null, validTimes: [base.validTimes[0]!] }, format)).toBe(
      'https://example.test/hrrr.t12z.grib2 · valid Nov 27, 2026, 1:00 PM UTC',
    )
    expect(provenanceText({ ...base, source: 'fuels.tif', refTime: null, validTimes: [] }, format)).toBe(
      'fuels.tif',
    )
  })

  it('says nothing for the demo seed', () => {
    expect(provenanceText({ ...base, source: 'synthetic' }, format)).toBeNull()
  })

  it('finds the grids a layer draws, sub-layers included', () => {
    const psps = layerById('psps')
    expect(gridsOfLayer(psps)).toEqual(
      expect.arrayContaining(['sustained_wind_next', 'relative_humidity_next']),
    )
    expect(gridsOfLayer(layerById('transmission_lines'))).toEqual([])
  })
})
