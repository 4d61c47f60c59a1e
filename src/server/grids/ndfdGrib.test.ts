// NDFD's element names and units as GDAL reports them (#32). No real NOAA file is reachable here,
// so GDAL writes GRIB2 messages with NDFD's own identification (centre 8, US-NWSTG) and parameter
// codes (discipline 0: wind speed 2/1, direction 2/0, gust 2/22, relative humidity 1/1 at 2 m) and
// each NDFD grid feed of the real config/feeds.yaml is checked against what GDAL names and how it
// gives the unit. Not verified here: NDFD's real packing (JPEG 2000), its missing-value mask and
// its Lambert grid, which only a real file shows.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feedsConfig } from '../../shared/config'
import { unitOf } from '../feeds/units'
import { openGridStorage } from '../store/openStoreFile'
import type { GridStorage } from '../store/AppStore'
import { importGridFile } from './importGridFile'
import { WIND_U_GRID, WIND_V_GRID } from './windGrid'
import { ndfdGribArgs } from '../../../tests/support/ndfdGrib'

const run = promisify(execFile)

/** NDFD file name → GRIB2 parameter category/number (discipline 0) and the level it is at. */
const NDFD: Record<string, { param: string; level: string; element: string; unit: string }> = {
  'ds.wspd.bin': { param: '2 1', level: '103 0 10', element: 'WindSpd:10-HTGL', unit: 'm/s' },
  'ds.wdir.bin': { param: '2 0', level: '103 0 10', element: 'WindDir:10-HTGL', unit: 'deg true' },
  'ds.wgust.bin': { param: '2 22', level: '103 0 10', element: 'WindGust:10-HTGL', unit: 'm/s' },
  'ds.rhm.bin': { param: '1 1', level: '103 0 2', element: 'RH:2-HTGL', unit: '%' },
}

let dir = ''
let opened: { grids: GridStorage; close(): void }

/** A one-message NDFD-like GRIB2 file of `name`'s element over central New Mexico. */
async function ndfdFile(name: string): Promise<string> {
  const { param, level } = NDFD[name]!
  const src = path.join(dir, `${name}.tif`)
  const out = path.join(dir, name)
  await run(
    'gdal_create',
    ['-of', 'GTiff', '-outsize', '20', '20', '-ot', 'Float32', '-burn', '7'].concat([
      '-a_srs',
      'EPSG:4326',
      '-a_ullr',
      '-108',
      '37',
      '-103',
      '32',
      src,
    ]),
  )
  await run('gdal_translate', [...ndfdGribArgs(param, level), src, out])
  return out
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'emberline-ndfd-'))
  opened = openGridStorage(dir)
})
afterAll(() => {
  opened?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const ndfdFeeds = (feedsConfig.gridFeeds ?? []).filter((f) => /\/DC\.ndfd\//.test(f.source.url ?? ''))

describe('NDFD grid feeds (config/feeds.yaml) against GDAL’s names and units for NDFD messages', () => {
  it('config/feeds.yaml declares NDFD speed, gust, humidity and the wind particles', () => {
    expect(ndfdFeeds.map((f) => f.grid).sort()).toEqual(
      ['relative_humidity_next', 'sustained_wind_next', 'wind', 'wind_gust_next'].sort(),
    )
  })

  it.each(
    ndfdFeeds.flatMap((f) => [
      { feed: f.id, grid: f.grid === 'wind' ? WIND_U_GRID : f.grid, source: f.source, from: f.units?.from },
      ...(f.direction
        ? [{ feed: `${f.id} (direction)`, grid: WIND_V_GRID, source: f.direction, from: undefined }]
        : []),
    ]),
  )(
    '$feed: the element GDAL names, its unit is the one the feed converts from',
    async ({ grid, source, from }) => {
      const name = path.basename(source.url ?? '')
      const expected = NDFD[name]
      expect(expected, `an NDFD file this test knows: ${name}`).toBeDefined()
      const file = await ndfdFile(name)
      const summary = await importGridFile(opened, grid, file, {
        from: '2026-11-27T13:00:00Z',
        ...(source.element ? { element: source.element } : {}),
      })
      // GDAL names NDFD's (centre 8) elements in degrib's NDFD way: WindSpd, WindDir, WindGust — not
      // the WMO abbreviations WIND, WDIR, GUST it gives other centres' messages (e.g. NCEP's HRRR).
      expect(summary.variable).toBe(expected!.element)
      expect(summary.unit).toBe(expected!.unit)
      // The feed converts from the unit the file is in (speed and gust: m/s → mph); RH is stored in %.
      if (from) expect(unitOf(summary.unit!)).toBe(from)
      else expect(['%', 'deg true']).toContain(summary.unit)
      expect(summary.validTimes).toEqual(['2026-11-27T13:00:00.000Z'])
      expect(summary.refTime).toBe('2026-11-27T12:00:00.000Z')
    },
  )

  it('an element chosen by its WMO name is refused for an NDFD file, naming GDAL’s NDFD name', async () => {
    const file = await ndfdFile('ds.wgust.bin')
    await expect(importGridFile(opened, 'wind_gust_next', file, { element: 'GUST' })).rejects.toThrow(
      /no 'GUST' messages \(elements: WindGust:10-HTGL\)/,
    )
  })
})
