import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DatasetDef } from '../store/catalog'
import { encodeGeometry, toParts } from '../store/geometryCodec'
import { openStore } from '../store/sqliteStore'
import { saveTileData } from './saveTileData'
import { buildTileData } from './tileData'
import { readTileData, tileDataPath, writeTileData } from './tileDataFile'

const d: DatasetDef = {
  id: 'things',
  geometry: 'polygon',
  fields: [
    { name: 'kind', type: 'string' },
    { name: 'height', type: 'number' },
  ],
}

function sample() {
  const rows = [0, 1, 2].map((i) => {
    const ring = [
      [-106 + i, 35],
      [-105.9 + i, 35],
      [-105.9 + i, 35.1],
      [-106 + i, 35],
    ]
    const g = encodeGeometry(toParts({ type: 'Polygon', coordinates: [ring] }, 'polygon'), 'polygon')
    return [i + 1, g.size, g.blob, i === 1 ? null : `k${i}`, i === 2 ? null : i * 1.5]
  })
  return buildTileData(d, { version: 3, count: 3, bbox: [-106, 35, -103.9, 35.1], rows })
}

describe('tile data file', () => {
  it('round-trips every array, column and the box index; refuses data of another version, count or bbox', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-tiledata-'))
    try {
      const file = tileDataPath(path.join(dir, 'emberline.sqlite'), d.id)
      const t = sample()
      const stamp = {
        version: 3,
        count: 3,
        bbox: [-106, 35, -103.9, 35.1] as [number, number, number, number],
      }
      writeTileData(file, t, stamp)
      const back = await readTileData(file, stamp)
      expect(back).not.toBeNull()
      expect(back?.n).toBe(3)
      expect(Array.from(back?.ids ?? [])).toEqual([1, 2, 3])
      expect(Array.from(back?.coords ?? [])).toEqual(Array.from(t.coords))
      expect(Array.from(back?.importance ?? [])).toEqual(Array.from(t.importance))
      expect(Array.from(back?.ringStart ?? [])).toEqual(Array.from(t.ringStart))
      // Values as ids, one dictionary per kind: strings k0, k2; numbers 0, 1.5 (-1 = missing).
      expect(back?.fields.map((f) => [f.name, f.numeric, Array.from(f.codes)])).toEqual([
        ['kind', false, [0, -1, 1]],
        ['height', true, [0, 1, -1]],
      ])
      expect(back?.strings).toEqual(['k0', 'k2'])
      expect(Array.from(back?.numbers ?? [])).toEqual([0, 1.5])
      const indexBytes = (x: typeof t | null) =>
        x?.index ? new Uint8Array(x.index, x.indexOffset, x.indexBytes) : new Uint8Array()
      expect(indexBytes(back)).toEqual(indexBytes(t))
      // Read straight into one SharedArrayBuffer (what the server hands the tile workers).
      const shared = await readTileData(file, stamp, true)
      expect(shared?.coords.buffer).toBeInstanceOf(SharedArrayBuffer)
      expect(shared?.index).toBe(shared?.coords.buffer)
      expect(Array.from(shared?.coords ?? [])).toEqual(Array.from(t.coords))
      expect(indexBytes(shared)).toEqual(indexBytes(t))
      expect(await readTileData(file, { ...stamp, version: 4 })).toBeNull()
      expect(await readTileData(file, { ...stamp, count: 2 })).toBeNull()
      expect(await readTileData(file, { ...stamp, bbox: null })).toBeNull()
      fs.writeFileSync(file, 'garbage')
      expect(await readTileData(file, stamp)).toBeNull()
      expect(await readTileData(path.join(dir, 'missing.bin'), stamp)).toBeNull()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('saveTileData', () => {
  it('writes the file the server then loads for the stored version', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-savetile-'))
    const catalog = { datasets: [d], tables: [], sources: [] }
    const store = openStore(dir, catalog)
    try {
      store.replaceDataset('things', [
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [-106, 35],
                [-105.9, 35],
                [-105.9, 35.1],
                [-106, 35],
              ],
            ],
          },
          properties: { kind: 'a', height: 2 },
        },
      ])
      const saved = await saveTileData(store, 'things')
      expect(saved?.file).toBe(tileDataPath(path.join(dir, 'emberline.sqlite'), 'things'))
      const back = await readTileData(saved?.file as string, store.info('things'))
      expect(back?.n).toBe(1)
      expect(back?.strings).toEqual(['a'])
      expect(Array.from(back?.numbers ?? [])).toEqual([2])
    } finally {
      store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
