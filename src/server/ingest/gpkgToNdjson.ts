import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A GeoPackage's first feature layer as newline-delimited GeoJSON in longitude/latitude
 * (`ogr2ogr -f GeoJSONSeq -t_srs EPSG:4326`, GDAL's command-line tools), for the CLI's readers.
 * Attributes keep the GeoPackage's column names, so they must match the dataset's fields.
 */
export async function gpkgToNdjson(gpkg: string, dir: string): Promise<string> {
  const out = path.join(dir, 'layer.ndjson')
  try {
    await run('ogr2ogr', ['-f', 'GeoJSONSeq', '-t_srs', 'EPSG:4326', '-lco', 'RS=NO', out, gpkg], {
      maxBuffer: 16 * 1024 * 1024,
    })
  } catch (err) {
    const e = err as { code?: unknown; stderr?: string; message?: string }
    if (e.code === 'ENOENT') throw new Error('ogr2ogr is not installed (GDAL command-line tools, gdal-bin)')
    const line =
      (e.stderr ?? e.message ?? '').split('\n').find((l) => l.startsWith('ERROR')) ?? 'ogr2ogr failed'
    throw new Error(`not a GeoPackage this server can read: ${line.replace(/^ERROR \d+: /, '')}`)
  }
  return out
}
