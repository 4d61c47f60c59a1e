import { describe, expect, it } from 'vitest'
import { mapLayerById } from '../../../shared/config'
import { formatDate } from '../../../shared/format'
import { infoSourceOf, MAX_INFO_ROWS, sourceInfoContent, sourceInfoUrl } from './sourceInfo'

describe('raster source popups', () => {
  const answer = {
    source: 'zones_wms',
    features: [
      { layer: 'zones', attributes: { zone_id: 'Z1', name: 'Sandia Foothills', score: 87, note: null } },
    ],
  }

  it('shows the first feature attributes under the layer name when the YAML has no popup', () => {
    expect(sourceInfoContent('Fire zones', undefined, answer)).toEqual({
      title: 'Fire zones',
      rows: [
        { label: 'zone_id', value: 'Z1' },
        { label: 'name', value: 'Sandia Foothills' },
        { label: 'score', value: '87' },
        { label: 'note', value: '' },
      ],
    })
  })

  it("shows our grids' popup (value, valid time in local time, source) and asks png sources", () => {
    const grid = {
      source: 'rh_next_png',
      features: [
        {
          layer: 'Relative humidity',
          attributes: { Value: '21 %', 'Valid time': '2026-11-27T14:00:00.000Z', Source: 'rh.grib2' },
        },
      ],
    }
    const rows = sourceInfoContent('PSPS', undefined, grid)!.rows
    expect(rows[0]).toEqual({ label: 'Value', value: '21 %' })
    expect(rows[1]!.value).toBe(formatDate('2026-11-27T14:00:00.000Z'))
    expect(rows[1]!.value).not.toContain('T14:00')
    expect(rows[2]).toEqual({ label: 'Source', value: 'rh.grib2' })
    expect(infoSourceOf(mapLayerById('psps_relative_humidity'))).toBe('rh_next_png')
  })

  it('applies the YAML popup (title field, labelled rows) to the attributes', () => {
    const popup = { title: 'name', fields: [{ key: 'score', label: 'Risk score' }] }
    expect(sourceInfoContent('Fire zones', popup, answer)).toEqual({
      title: 'Sandia Foothills',
      rows: [{ label: 'Risk score', value: '87' }],
    })
  })

  it('no feature there: no popup; many attributes: bounded rows', () => {
    expect(sourceInfoContent('Fire zones', undefined, { source: 'x', features: [] })).toBeNull()
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a${i}`, i]))
    const content = sourceInfoContent('L', undefined, { source: 'x', features: [{ attributes: many }] })
    expect(content!.rows).toHaveLength(MAX_INFO_ROWS)
  })

  it('asks the proxy with whole zooms and a clamped latitude', () => {
    expect(sourceInfoUrl('zones wms', -106.5, 89, 9.6)).toBe(
      '/api/sources/zones%20wms/info?lon=-106.500000&lat=85.050000&z=10',
    )
  })
})
