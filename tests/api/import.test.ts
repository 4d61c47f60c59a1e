import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCatalog } from '../../src/server/store/catalog'
import { readFeatures } from '../../src/server/store/readFeatures'
import { openStore, type SqliteStore } from '../../src/server/store/sqliteStore'
import type { FeatureInput } from '../../src/server/store/Store'
import { encodedRowsInWorker } from '../../src/server/store/encodedRowsInWorker'
import { encodeFeature } from '../../src/server/store/writeDataset'
import { countCells } from '../../src/server/store/aggregateCells'
import { mercX, mercY } from '../../src/server/store/geometryCodec'
import { tempDir } from './testApp'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')

let dir: string
let store: SqliteStore
beforeEach(() => {
  dir = tempDir('emberline-import-')
  store = openStore(dir, defaultCatalog())
})
afterEach(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const point = (lon: number, lat: number, name: string, type = 'Hospital'): string =>
  JSON.stringify({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lon, lat] },
    properties: { name, type },
  })

function write(name: string, text: string): string {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

function names(): string[] {
  return store.records('critical_infrastructure', [], 100, 0).records.map((r) => String(r.name))
}

describe('import', () => {
  it('loads NDJSON, GeoJSON and CSV into a dataset, replacing what was there', () => {
    const nd = write('a.ndjson', [point(-106.6, 35.1, 'A'), '', point(-106.5, 35.2, 'B')].join('\n') + '\n')
    expect(store.replaceDataset('critical_infrastructure', readFeatures(nd))).toBe(2)
    expect(names()).toEqual(['A', 'B'])
    const fc = JSON.stringify({ type: 'FeatureCollection', features: [JSON.parse(point(-106, 35, 'C'))] })
    store.replaceDataset('critical_infrastructure', readFeatures(write('b.geojson', fc)))
    expect(names()).toEqual(['C'])
    const csv = write('c.csv', 'name,type,lon,lat\n"Fire Station, North",Fire Station,-106.1,35.6\n')
    store.replaceDataset('critical_infrastructure', readFeatures(csv))
    expect(store.records('critical_infrastructure', [], 10, 0).records[0]).toMatchObject({
      name: 'Fire Station, North',
      type: 'Fire Station',
      bbox: [-106.1, 35.6, -106.1, 35.6],
    })
  })

  it('names the bad line and keeps the previous data', () => {
    store.replaceDataset(
      'critical_infrastructure',
      readFeatures(write('ok.ndjson', point(-106.6, 35.1, 'Keep') + '\n')),
    )
    const bad = write(
      'bad.ndjson',
      [point(-106.6, 35.1, 'X'), point(-106.5, 35.2, 'Y'), '{"type": "Feature", "geometry": '].join('\n'),
    )
    expect(() => store.replaceDataset('critical_infrastructure', readFeatures(bad))).toThrow(
      /line 3: invalid JSON/,
    )
    const wrongKind = write(
      'line.ndjson',
      point(-106, 35, 'Z') +
        '\n' +
        JSON.stringify({
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
          properties: {},
        }),
    )
    expect(() => store.replaceDataset('critical_infrastructure', readFeatures(wrongKind))).toThrow(
      /line 2: geometry LineString/,
    )
    const badNumber = write('n.csv', 'name,elevation_ft,lon,lat\nA,high,-106,35\n')
    expect(() => store.replaceDataset('weather_stations_raws', readFeatures(badNumber))).toThrow(
      /line 2: field elevation_ft/,
    )
    expect(names()).toEqual(['Keep'])
  })

  it('an import interrupted half-way leaves the previous data intact', () => {
    store.replaceDataset(
      'critical_infrastructure',
      readFeatures(write('ok.ndjson', point(-106.6, 35.1, 'Keep') + '\n')),
    )
    const before = store.info('critical_infrastructure')
    function* interrupted(): Generator<FeatureInput> {
      for (let i = 0; i < 5000; i++) {
        if (i === 2500) throw new Error('interrupted')
        yield {
          geometry: { type: 'Point', coordinates: [-106, 35] },
          properties: { name: `n${i}`, type: 'Hospital' },
        }
      }
    }
    expect(() => store.replaceDataset('critical_infrastructure', interrupted())).toThrow('interrupted')
    expect(names()).toEqual(['Keep'])
    expect(store.info('critical_infrastructure')).toEqual(before)
  })

  it('a worker thread encodes the same rows as the main thread, and names a bad line', () => {
    const d = store.dataset('critical_infrastructure')
    if (!d) throw new Error('no dataset')
    const lines = Array.from({ length: 4500 }, (_, i) => point(-106 + i / 10000, 35, `n${i}`))
    const file = write('many.ndjson', lines.join('\n') + '\n')
    const source = encodedRowsInWorker(file, d, {
      aggZooms: [3, 9],
      indexFields: d.fields.filter((f) => f.name === 'type'),
    })
    const inWorker = [...source.rows]
    const inline = [...readFeatures(file)].map((f) => encodeFeature(d, f))
    expect(inWorker).toHaveLength(4500)
    expect(inWorker.map((r) => ({ ...r, blob: Buffer.from(r.blob).toString('hex') }))).toEqual(
      inline.map((r) => ({ ...r, blob: Buffer.from(r.blob).toString('hex') })),
    )
    // What the worker computed from the rows equals what the inline import computes.
    const { cells, index } = source.precomputed()
    expect(cells).toEqual(
      countCells(
        inline.map((r) => mercX((r.minx + r.maxx) / 2)),
        inline.map((r) => mercY((r.miny + r.maxy) / 2)),
        [3, 9],
      ),
    )
    expect(index.ids).toEqual(Int32Array.from(inline, (_, i) => i + 1))
    expect(index.query([{ field: 'type', op: 'contains', value: 'hosp' }], 10, 0).total).toBe(4500)
    lines[3000] = point(-106, 35, 'bad').replace('"Point"', '"Polygon"')
    const bad = write('bad-many.ndjson', lines.join('\n'))
    expect(() => [...encodedRowsInWorker(bad, d).rows]).toThrow(/line 3001: geometry Polygon/)
  }, 60_000)

  it('the CLI imports through the worker; the records index is stored with the data', async () => {
    store.close()
    const lines = Array.from({ length: 3000 }, (_, i) =>
      point(-106 + i / 10000, 35, `n${i}`, i % 3 ? 'Hospital' : 'School'),
    )
    const file = write('cli.ndjson', lines.join('\n') + '\n')
    const { stdout } = await run(
      'npx',
      ['tsx', 'scripts/import.ts', 'critical_infrastructure', file, '--data-dir', dir],
      {
        cwd: root,
      },
    )
    expect(stdout).toMatch(/imported 3000 features into critical_infrastructure/)
    expect(stdout).toMatch(/tile data saved to .*tile-index\/critical_infrastructure\.bin/)
    expect(fs.statSync(path.join(dir, 'tile-index', 'critical_infrastructure.bin')).size).toBeGreaterThan(0)
    store = openStore(dir, defaultCatalog())
    expect(store.columnIndex('critical_infrastructure')).not.toBeNull()
    const schools = store.records(
      'critical_infrastructure',
      [{ field: 'type', op: 'contains', value: 'school' }],
      5,
      0,
    )
    expect(schools.total).toBe(1000)
    expect(schools.records.map((r) => r.name)).toEqual(['n0', 'n3', 'n6', 'n9', 'n12'])
  }, 60_000)

  it('the CLI reports the bad line, exits non-zero and leaves the data', async () => {
    store.replaceDataset(
      'critical_infrastructure',
      readFeatures(write('ok.ndjson', point(-106.6, 35.1, 'Keep') + '\n')),
    )
    store.close()
    const bad = write('bad.ndjson', point(-106.6, 35.1, 'X') + '\nnot json\n')
    const failure = await run(
      'npx',
      ['tsx', 'scripts/import.ts', 'critical_infrastructure', bad, '--data-dir', dir],
      { cwd: root },
    ).then(
      () => null,
      (e: { code?: number; stderr?: string }) => e,
    )
    expect(failure?.code).toBe(1)
    expect(failure?.stderr).toMatch(/line 2: invalid JSON/)
    store = openStore(dir, defaultCatalog())
    expect(names()).toEqual(['Keep'])
  }, 60_000)
})
