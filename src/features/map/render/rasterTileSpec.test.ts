import { describe, expect, it } from 'vitest'
import { sourceOfType, type WmsSource, type XyzSource } from '../../../shared/config'
import { rasterSource, rasterTileSpec } from './rasterTileSpec'
import { tileUrlTemplate } from './tileUrlTemplate'

const xyz: XyzSource = {
  id: 'vendor_xyz',
  type: 'xyz',
  url: 'https://tiles.example.com/{z}/{x}/{y}.png',
  query: { key: '${VENDOR_KEY}' },
  attribution: '© Vendor',
  minzoom: 2,
  maxzoom: 15,
}
const wms: WmsSource = {
  id: 'fire_wms',
  type: 'wms',
  url: 'https://wms.example.gov/ows',
  layers: 'wfpi',
  attribution: 'USFS',
  minzoom: 0,
  maxzoom: 12,
}

describe('rasterTileSpec', () => {
  it('draws xyz and wms sources from our proxy, never the upstream URL, with their zooms and credit', () => {
    expect(rasterTileSpec(xyz, false, 5)).toEqual({
      url: '/api/sources/vendor_xyz/tiles/{z}/{x}/{y}',
      minZoom: 2,
      maxNativeZoom: 15,
      tileSize: 256,
      attribution: '© Vendor',
    })
    expect(rasterTileSpec(wms, true, null)).toEqual({
      url: '/api/sources/fire_wms/tiles/{z}/{x}/{y}',
      minZoom: 0,
      maxNativeZoom: 12,
      tileSize: 256,
      attribution: 'USFS',
    })
  })

  it('keeps png grid tiles as before (our tile path, tile size, forecast hour)', () => {
    const slope = sourceOfType('slope_png', 'png')
    expect(rasterTileSpec(slope, false, null)).toEqual({
      url: tileUrlTemplate(slope, false),
      minZoom: slope.minzoom,
      maxNativeZoom: slope.maxzoom,
      tileSize: slope.tileSize,
    })
  })

  it('refuses a source a raster paint cannot draw', () => {
    expect(rasterSource(xyz)).toBe(xyz)
    expect(() => rasterSource(sourceOfType('psps_lines_mvt', 'mvt'))).toThrow(
      'is mvt, not png, xyz, wms, wmts or arcgis-mapserver',
    )
  })
})
