import { fromArrayBuffer } from 'geotiff'
import type { GridRaster } from './gridRaster'

/** EPSG codes of geographic (longitude/latitude degree) coordinate systems we accept as is. */
const GEOGRAPHIC = new Set([4326, 4269, 4258, 4283])

/**
 * Reads a GeoTIFF in longitude/latitude degrees into one grid per band (band n = forecast hour n).
 * The GDAL no-data value and non-finite values become NaN. Throws a readable error otherwise.
 */
export async function readGeoTiff(bytes: ArrayBuffer): Promise<GridRaster[]> {
  const tiff = await fromArrayBuffer(bytes)
  const image = await tiff.getImage()
  const keys = (image.getGeoKeys() ?? {}) as Record<string, unknown>
  const modelType = keys.GTModelTypeGeoKey
  const epsg = Number(keys.GeographicTypeGeoKey ?? keys.ProjectedCSTypeGeoKey ?? 0)
  if (modelType !== 2 || (epsg !== 0 && !GEOGRAPHIC.has(epsg))) {
    throw new Error(
      `the GeoTIFF is not in longitude/latitude degrees (EPSG ${epsg || 'unknown'}); reproject it first, e.g. gdalwarp -t_srs EPSG:4326 in.tif out.tif`,
    )
  }
  const [west, south, east, north] = image.getBoundingBox() as [number, number, number, number]
  const nx = image.getWidth()
  const ny = image.getHeight()
  const noData = image.getGDALNoData()
  const bands = await image.readRasters()
  const out: GridRaster[] = []
  for (let b = 0; b < bands.length; b++) {
    const band = bands[b] as ArrayLike<number>
    const data = new Float32Array(nx * ny)
    for (let k = 0; k < data.length; k++) {
      const v = Number(band[k])
      data[k] = !Number.isFinite(v) || (noData !== null && v === noData) ? Number.NaN : v
    }
    out.push({ nx, ny, west, south, east, north, data })
  }
  return out
}
