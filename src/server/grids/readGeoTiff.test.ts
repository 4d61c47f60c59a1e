import { writeArrayBuffer } from 'geotiff'
import { describe, expect, it } from 'vitest'
import { readGeoTiff } from './readGeoTiff'

/** A 3×2 GeoTIFF (8-bit: what geotiff.js writes) with its top-left corner at (-107, 35) and 0.5° pixels. */
function tiff(geoKeys: Record<string, number>): ArrayBuffer {
  const values = [1, 2, 3, 255, 5, 6]
  return writeArrayBuffer(values, {
    width: 3,
    height: 2,
    ModelPixelScale: [0.5, 0.5, 0],
    ModelTiepoint: [0, 0, 0, -107, 35, 0],
    GDAL_NODATA: '255',
    ...geoKeys,
  }) as ArrayBuffer
}

describe('readGeoTiff', () => {
  it('reads a longitude/latitude GeoTIFF with its extent and no-data cells', async () => {
    const [g] = await readGeoTiff(tiff({ GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 4326 }))
    expect(g).toMatchObject({ nx: 3, ny: 2, west: -107, north: 35, east: -105.5, south: 34 })
    expect([...g!.data].map((v) => (Number.isNaN(v) ? null : v))).toEqual([1, 2, 3, null, 5, 6])
  })
  it('refuses projected GeoTIFFs with a hint to reproject', async () => {
    await expect(readGeoTiff(tiff({ GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 3857 }))).rejects.toThrow(
      /EPSG 3857.*gdalwarp/,
    )
  })
})
