/**
 * Grid ingestion benchmark (#32): a 1 km CONUS-size GRIB2 field (4,500 × 2,700 cells on a Lambert
 * conformal grid like NDFD's and HRRR's, a smooth varying field so the packing is realistic)
 * imported by `importGridFile` into a fresh SQLite grid store: reprojection to longitude/latitude
 * (bilinear), decoding, storing. Target: ≤ 10 s.
 *
 *   tsx scripts/bench/ingestGrid.ts [--nx 4500] [--ny 2700]
 *
 * `benchIngestGrid()` is what `npm run bench:ingest` calls; it prints its figures and returns them.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import {
  importGridFile,
  type GridImportPhase,
  type ImportGridSummary,
} from '../../src/server/grids/importGridFile'
import { openGridStorage } from '../../src/server/store/openStoreFile'
import { ndfdGribArgs } from '../../tests/support/ndfdGrib'

const run = promisify(execFile)

/** NDFD's CONUS Lambert conformal projection (standard parallel 25°N, central meridian 95°W). */
const NDFD_LCC =
  '+proj=lcc +lat_1=25 +lat_2=25 +lat_0=25 +lon_0=-95 +x_0=0 +y_0=0 +R=6371200 +units=m +no_defs'

/**
 * CPU seconds used so far by this process and its finished children (GDAL's tools), from
 * /proc/self/stat (utime, stime, cutime, cstime in clock ticks); null off Linux.
 */
function cpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields 14..17 of the full line are at 11..14 after the command name and state.
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100
  } catch {
    return null
  }
}

export interface IngestGridFigures {
  readonly nx: number
  readonly ny: number
  readonly gribBytes: number
  /** Wall time of `importGridFile` (read, reproject, store), seconds. */
  readonly seconds: number
  /** CPU seconds of the import (this process + GDAL), null off Linux: the figure a loaded machine cannot distort. */
  readonly cpuSeconds: number | null
  /** The 1-minute load average when it finished (wall time is only meaningful on an idle machine). */
  readonly loadAverage: number
  readonly targetSeconds: number
  /** Each phase's wall and CPU seconds (CPU: this process + the GDAL tool that ran in it). */
  readonly phases: readonly { phase: GridImportPhase; seconds: number; cpuSeconds: number | null }[]
  readonly summary: ImportGridSummary
}

/** Writes the GRIB2 file, imports it once and prints and returns the figures. */
export async function benchIngestGrid(
  options: { nx?: number; ny?: number; log?: (line: string) => void } = {},
): Promise<IngestGridFigures> {
  const nx = options.nx ?? 4500
  const ny = options.ny ?? 2700
  const log = options.log ?? ((line: string) => console.log(line))
  const dir = mkdtempSync(path.join(tmpdir(), 'emberline-bench-grid-'))
  try {
    // A wind-speed-like field (mph): long waves plus finer ripples, written as raw Float32 + VRT.
    const values = new Float32Array(nx * ny)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++)
        values[j * nx + i] =
          20 + 12 * Math.sin(i / 310) * Math.cos(j / 190) + 3 * Math.sin((i + 2 * j) / 23) + (i % 7) * 0.05
    writeFileSync(path.join(dir, 'field.bin'), new Uint8Array(values.buffer))
    const x0 = -2_750_000
    const y0 = 3_300_000
    writeFileSync(
      path.join(dir, 'field.vrt'),
      `<VRTDataset rasterXSize="${nx}" rasterYSize="${ny}"><SRS>${NDFD_LCC}</SRS>
        <GeoTransform>${x0}, 1000, 0, ${y0}, 0, -1000</GeoTransform>
        <VRTRasterBand dataType="Float32" band="1" subClass="VRTRawRasterBand">
          <SourceFilename relativetoVRT="1">field.bin</SourceFilename><ImageOffset>0</ImageOffset>
          <PixelOffset>4</PixelOffset><LineOffset>${nx * 4}</LineOffset><ByteOrder>LSB</ByteOrder>
        </VRTRasterBand></VRTDataset>`,
    )
    const grib = path.join(dir, 'conus.grib2')
    await run('gdal_translate', [
      ...ndfdGribArgs('2 1', '103 0 10', [
        'DECIMAL_SCALE_FACTOR=1',
        'DATA_ENCODING=COMPLEX_PACKING',
        'SPATIAL_DIFFERENCING_ORDER=2',
      ]),
      path.join(dir, 'field.vrt'),
      grib,
    ])
    const gribBytes = statSync(grib).size
    const store = openGridStorage(dir)
    try {
      const cpuBefore = cpuSeconds()
      const phases: { phase: GridImportPhase; seconds: number; cpuSeconds: number | null }[] = []
      let cpuMark = cpuBefore
      const started = performance.now()
      const summary = await importGridFile(store, 'sustained_wind_next', grib, {
        onPhase: (phase, seconds) => {
          const now = cpuSeconds()
          phases.push({ phase, seconds, cpuSeconds: now !== null && cpuMark !== null ? now - cpuMark : null })
          cpuMark = now
        },
      })
      const seconds = (performance.now() - started) / 1000
      const cpuAfter = cpuSeconds()
      const cpu = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null
      const loadAverage = loadavg()[0] ?? 0
      const figures = {
        nx,
        ny,
        gribBytes,
        seconds,
        cpuSeconds: cpu,
        loadAverage,
        targetSeconds: 10,
        phases,
        summary,
      }
      log(
        `ingest grid: GRIB2 ${nx}×${ny} (1 km Lambert conformal, ${(gribBytes / 1e6).toFixed(1)} MB) → ` +
          `${summary.nx}×${summary.ny} lon/lat cells in ${seconds.toFixed(2)} s wall` +
          `${cpu !== null ? `, ${cpu.toFixed(2)} s CPU (Node + GDAL)` : ''}, load average ${loadAverage.toFixed(1)} ` +
          `(target ≤ 10 s: ${seconds <= 10 ? 'met' : 'NOT met'})`,
      )
      log(
        `  phases: ${phases
          .map(
            (p) =>
              `${p.phase} ${p.seconds.toFixed(2)} s` +
              (p.cpuSeconds !== null ? ` (${p.cpuSeconds.toFixed(2)} s CPU)` : ''),
          )
          .join(', ')}`,
      )
      return figures
    } finally {
      store.close()
    }
  } finally {
    if (!process.env.KEEP_BENCH_DIR) rmSync(dir, { recursive: true, force: true })
    else log(`kept ${dir}`)
  }
}

if (import.meta.url === `file://${process.argv[1] ? path.resolve(process.argv[1]) : ''}`) {
  const arg = (name: string): number | undefined => {
    const at = process.argv.indexOf(name)
    return at >= 0 ? Number(process.argv[at + 1]) : undefined
  }
  const nx = arg('--nx')
  const ny = arg('--ny')
  await benchIngestGrid({ ...(nx ? { nx } : {}), ...(ny ? { ny } : {}) })
}
