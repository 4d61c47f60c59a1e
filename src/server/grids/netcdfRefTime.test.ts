// A NetCDF file's reference time (model run) read from its CF metadata by importGridFile (#32
// item 3): files written by GDAL (gdalmdimtranslate from a multidimensional VRT) with a
// forecast_reference_time variable, a reference_time attribute, or only a time axis counting
// from the run; `refTime` overrides the file; a time axis from 1970 says nothing about the run.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openGridStorage } from '../store/openStoreFile'
import type { GridStorage } from '../store/AppStore'
import { importGridFile } from './importGridFile'
import { dateText } from './netcdfRefTime'

const run = promisify(execFile)
let dir: string
let opened: { grids: GridStorage; close(): void }
const store = () => ({ grids: opened.grids })
const GRID = 'relative_humidity_next'

const attribute = (name: string, value: string): string =>
  `<Attribute name="${name}"><DataType>String</DataType><Value>${value}</Value></Attribute>`

/** A CF NetCDF (lon/lat, EPSG:4326) with a `wind_speed` variable over three times. */
async function writeNetcdf(
  name: string,
  o: { timeUnits: string; times: number[]; refVariable?: { value: number; units: string }; globals?: string },
): Promise<string> {
  const values = (xs: number[]) =>
    `<InlineValuesWithValueElement>${xs.map((x) => `<Value>${x}</Value>`).join('')}</InlineValuesWithValueElement>`
  const ref = o.refVariable
    ? `<Array name="forecast_reference_time"><DataType>Float64</DataType>${values([o.refVariable.value])}
        ${attribute('units', o.refVariable.units)}${attribute('standard_name', 'forecast_reference_time')}</Array>`
    : ''
  const vrt = `<VRTDataset><Group name="/">${attribute('Conventions', 'CF-1.8')}${o.globals ?? ''}
    <Dimension name="time" size="${o.times.length}" type="TEMPORAL" indexingVariable="time"/>
    <Dimension name="lat" size="4" indexingVariable="lat"/>
    <Dimension name="lon" size="5" indexingVariable="lon"/>
    <Array name="time"><DataType>Float64</DataType><DimensionRef ref="time"/>${values(o.times)}
      ${attribute('units', o.timeUnits)}${attribute('standard_name', 'time')}</Array>
    ${ref}
    <Array name="lat"><DataType>Float64</DataType><DimensionRef ref="lat"/>
      <RegularlySpacedValues start="37" increment="-1"/>${attribute('units', 'degrees_north')}</Array>
    <Array name="lon"><DataType>Float64</DataType><DimensionRef ref="lon"/>
      <RegularlySpacedValues start="-108" increment="1"/>${attribute('units', 'degrees_east')}</Array>
    <Array name="wind_speed"><DataType>Float32</DataType>
      <DimensionRef ref="time"/><DimensionRef ref="lat"/><DimensionRef ref="lon"/>
      <SRS dataAxisToSRSAxisMapping="2,1">EPSG:4326</SRS><ConstantValue>5</ConstantValue>
      ${o.refVariable ? attribute('coordinates', 'forecast_reference_time') : ''}</Array>
  </Group></VRTDataset>`
  const vrtFile = path.join(dir, `${name}.vrt`)
  writeFileSync(vrtFile, vrt)
  const out = path.join(dir, `${name}.nc`)
  await run('gdalmdimtranslate', ['-q', '-of', 'netCDF', vrtFile, out])
  return out
}

const files: Record<string, string> = {}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'grids-netcdf-ref-'))
  opened = openGridStorage(dir)
  const [variable, attr, units, epoch1970] = await Promise.all([
    // Run 18:00, written as 6 hours after the axis's epoch: the variable, not the epoch, is the run.
    writeNetcdf('variable', {
      timeUnits: 'hours since 2026-11-27 12:00:00',
      times: [6, 7, 8],
      refVariable: { value: 6, units: 'hours since 2026-11-27 12:00:00' },
    }),
    // Times in hours since 1970 (2026-11-27T07:00Z …), run 06:00 in a global attribute.
    writeNetcdf('attribute', {
      timeUnits: 'hours since 1970-01-01 00:00:00',
      times: [498823, 498824, 498825],
      globals: attribute('reference_time', '2026-11-27T06:00:00Z'),
    }),
    // Only the time axis: forecast hours 0, 1, 2 counted from the run.
    writeNetcdf('units', { timeUnits: 'hours since 2026-11-27 12:00:00', times: [0, 1, 2] }),
    writeNetcdf('epoch1970', {
      timeUnits: 'hours since 1970-01-01 00:00:00',
      times: [498823, 498824, 498825],
    }),
  ])
  Object.assign(files, { variable, attr, units, epoch1970 })
}, 60_000)

afterAll(() => {
  opened?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('a NetCDF reference time from the file', () => {
  it('reads the forecast_reference_time variable (before the time axis epoch)', async () => {
    const s = await importGridFile(store(), GRID, files.variable!)
    expect(s).toMatchObject({ format: 'NetCDF', variable: 'wind_speed', hours: 3 })
    expect(s.refTime).toBe('2026-11-27T18:00:00.000Z')
    expect(s.validTimes[0]).toBe('2026-11-27T18:00:00.000Z')
    expect((await opened.grids.list()).find((g) => g.id === GRID)?.refTime).toBe('2026-11-27T18:00:00.000Z')
  })

  it('reads a reference_time attribute when there is no such variable', async () => {
    const s = await importGridFile(store(), GRID, files.attr!)
    expect(s.refTime).toBe('2026-11-27T06:00:00.000Z')
    expect(s.validTimes[0]).toBe('2026-11-27T07:00:00.000Z')
  })

  it('takes the time axis epoch when its values are forecast hours from it', async () => {
    const s = await importGridFile(store(), GRID, files.units!)
    expect(s.refTime).toBe('2026-11-27T12:00:00.000Z')
    expect(s.validTimes).toEqual(['12', '13', '14'].map((h) => `2026-11-27T${h}:00:00.000Z`))
  })

  it('says nothing for an axis counted from 1970; refTime overrides what the file says', async () => {
    expect((await importGridFile(store(), GRID, files.epoch1970!)).refTime).toBeNull()
    const s = await importGridFile(store(), GRID, files.variable!, { refTime: '2026-11-27T15:00:00Z' })
    expect(s.refTime).toBe('2026-11-27T15:00:00.000Z')
  })

  it('reads CF and ISO date texts', () => {
    expect(dateText('2026-11-27 12:00:00')).toBe(Date.parse('2026-11-27T12:00:00Z'))
    expect(dateText('2026-11-27T12:00Z')).toBe(Date.parse('2026-11-27T12:00:00Z'))
    expect(dateText('2026-11-27 06:30:00 UTC')).toBe(Date.parse('2026-11-27T06:30:00Z'))
    expect(dateText('2026-11-27')).toBe(Date.parse('2026-11-27T00:00:00Z'))
    expect(dateText('yesterday')).toBeNull()
  })
})
