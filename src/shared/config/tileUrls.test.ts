import { describe, expect, it } from 'vitest'
import type { MvtSource, PngSource } from '../../generated/types'
import { recordsUrl, sourcePath, tableRecordsUrl, tileUrl, tileUrlTemplate } from './tileUrls'

const mvt: MvtSource = {
  id: 'lines',
  type: 'mvt',
  path: 'asset_data/transmission_lines',
  demoPath: 'demo/asset_data/transmission_lines',
  dataset: 'transmission_lines',
  minzoom: 5,
  maxzoom: 12,
  tileSize: 512,
}
const png: PngSource = { id: 'slope', type: 'png', path: 'slope', grid: 'slope', minzoom: 5, maxzoom: 14, tileSize: 256 }

describe('tile URLs', () => {
  it('uses demoPath in demo mode only', () => {
    expect(sourcePath(mvt, false)).toBe('asset_data/transmission_lines')
    expect(sourcePath(mvt, true)).toBe('demo/asset_data/transmission_lines')
  })

  it('falls back to path in demo mode when there is no demoPath', () => {
    expect(sourcePath(png, true)).toBe('slope')
  })

  it('builds vector and raster templates', () => {
    expect(tileUrlTemplate(mvt, true)).toBe('/api/tiles/demo/asset_data/transmission_lines/mvt/{z}/{x}/{y}')
    expect(tileUrlTemplate(png, false)).toBe('/api/tiles/slope/png/{z}/{x}/{y}')
    expect(tileUrl(png, false, 7, 24, 50)).toBe('/api/tiles/slope/png/7/24/50')
  })

  it('builds records URLs', () => {
    expect(recordsUrl('buildings')).toBe('/api/data/buildings/records')
    expect(tableRecordsUrl({ tabularDataUrl: 'data/buildings/records' })).toBe('/api/data/buildings/records')
  })
})
