import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { GridStore } from './gridStore'
import { migrate } from './migrate'

function store(): GridStore {
  const db = new Database(':memory:')
  migrate(db)
  return new GridStore(db)
}

const raster = (values: number[]) => ({
  nx: 2,
  ny: 2,
  west: -107,
  south: 34,
  east: -106,
  north: 35,
  data: Float32Array.from(values),
})

describe('GridStore', () => {
  it('stores every hour and reads each back with its extent and no-data cells', () => {
    const s = store()
    const version = s.replaceGrid('smoke', [raster([1, 2, 3, Number.NaN]), raster([5, 6, 7, 8])], 'test')
    const h0 = s.grid('smoke', 0)!
    expect([...h0.data].slice(0, 3)).toEqual([1, 2, 3])
    expect(Number.isNaN(h0.data[3]!)).toBe(true)
    expect(h0).toMatchObject({ nx: 2, ny: 2, west: -107, north: 35, version })
    expect([...s.grid('smoke', 1)!.data]).toEqual([5, 6, 7, 8])
    expect(s.grid('smoke', 2)).toBeUndefined()
    expect(s.list()).toEqual([
      { id: 'smoke', hours: 2, nx: 2, ny: 2, version, source: 'test', refTime: null, validTimes: [] },
    ])
  })
  it('replaces all hours and changes the version only when the content changes', () => {
    const s = store()
    const v1 = s.replaceGrid('slope', [raster([1, 2, 3, 4]), raster([1, 2, 3, 4])], 'a')
    expect(s.replaceGrid('slope', [raster([1, 2, 3, 4]), raster([1, 2, 3, 4])], 'a')).toBe(v1)
    const v2 = s.replaceGrid('slope', [raster([9, 2, 3, 4])], 'b')
    expect(v2).not.toBe(v1)
    expect(s.list()[0]).toMatchObject({ hours: 1, version: v2 })
  })
  it('rejects a raster whose values do not fill its size, keeping the previous grid', () => {
    const s = store()
    s.replaceGrid('slope', [raster([1, 2, 3, 4])], 'a')
    expect(() => s.replaceGrid('slope', [{ ...raster([1, 2, 3, 4]), nx: 3 }], 'b')).toThrow(
      /4 values for 3×2/,
    )
    expect([...s.grid('slope')!.data]).toEqual([1, 2, 3, 4])
  })
})

describe('GridStore.replaceGrids (wind u and v together)', () => {
  it('writes both grids, or neither when the database refuses the second', () => {
    const s = store()
    const [u1, v1] = s.replaceGrids([
      { id: 'wind_u', hours: [raster([1, 1, 1, 1])], source: 'a' },
      { id: 'wind_v', hours: [raster([2, 2, 2, 2])], source: 'a' },
    ])
    expect([s.version('wind_u'), s.version('wind_v')]).toEqual([u1, v1])
    // The second grid fails inside the transaction (NOT NULL), after the first was written.
    expect(() =>
      s.replaceGrids([
        { id: 'wind_u', hours: [raster([3, 3, 3, 3])], source: 'b' },
        { id: null as unknown as string, hours: [raster([4, 4, 4, 4])], source: 'b' },
      ]),
    ).toThrow(/NOT NULL/)
    expect([...s.grid('wind_u')!.data]).toEqual([1, 1, 1, 1])
    expect([s.version('wind_u'), s.version('wind_v')]).toEqual([u1, v1])
  })
})

describe('GridStore metadata', () => {
  it('drops a deleted grid from the versions too', () => {
    const s = store()
    s.replaceGrid('smoke', [raster([1, 2, 3, 4])], 'a')
    s.deleteGrid('smoke')
    expect(s.version('smoke')).toBeUndefined()
    expect(s.list()).toEqual([])
  })
})
