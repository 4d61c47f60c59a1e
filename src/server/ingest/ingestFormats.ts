/** What a dataset body may be, by its Content-Type, and the file extension the CLI's readers expect. */
export const DATASET_FORMATS = {
  'application/geo+json': { format: 'geojson', ext: '.geojson' },
  'application/json': { format: 'geojson', ext: '.geojson' },
  'application/geo+json-seq': { format: 'ndjson', ext: '.ndjson' },
  'application/x-ndjson': { format: 'ndjson', ext: '.ndjson' },
  'text/csv': { format: 'csv', ext: '.csv' },
  'application/geopackage+sqlite3': { format: 'gpkg', ext: '.gpkg' },
} as const

/** What a grid body may be: GDAL tells GeoTIFF, NetCDF and GRIB2 apart by their content. */
export const GRID_FORMATS = {
  'image/tiff': { format: 'geotiff', ext: '.tif' },
  'image/tiff; application=geotiff': { format: 'geotiff', ext: '.tif' },
  'application/x-netcdf': { format: 'netcdf', ext: '.nc' },
  'application/netcdf': { format: 'netcdf', ext: '.nc' },
  'application/grib2': { format: 'grib2', ext: '.grib2' },
  'application/x-grib2': { format: 'grib2', ext: '.grib2' },
  'application/octet-stream': { format: 'raster', ext: '.bin' },
} as const

export interface BodyFormat {
  format: string
  ext: string
}

/** The format of a Content-Type header (parameters such as charset ignored), or null. */
export function formatOf(
  contentType: string | undefined,
  table: Readonly<Record<string, BodyFormat>>,
): BodyFormat | null {
  if (!contentType) return null
  const full = contentType.toLowerCase().replace(/\s+/g, '')
  const exact = table[full.replace(';', '; ')]
  if (exact) return exact
  const base = full.split(';')[0] ?? ''
  return table[base] ?? null
}
