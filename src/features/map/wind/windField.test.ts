import { describe, expect, it } from 'vitest'
import { speedBucket, windField } from './windField'

const header = (parameterNumber: number) => ({
  parameterNumber,
  nx: 3,
  ny: 2,
  lo1: -107,
  la1: 36,
  dx: 1,
  dy: 1,
})
const records = [
  { header: header(2), data: [0, 10, 20, 0, 10, 20] },
  { header: header(3), data: [5, 5, 5, -5, -5, null] },
]

describe('windField', () => {
  it('samples U and V bilinearly from the north-west origin', () => {
    const f = windField(records)
    expect(f.sample(-107, 36)).toEqual([0, 5])
    expect(f.sample(-106.5, 35.5)).toEqual([5, 0])
    expect(f.bounds).toEqual({ west: -107, east: -105, north: 36, south: 35 })
  })

  it('gives null outside the grid and next to missing values', () => {
    const f = windField(records)
    expect(f.sample(-110, 36)).toBeNull()
    expect(f.sample(-105.2, 35.2)).toBeNull()
  })

  it('rejects records whose data does not match the header', () => {
    expect(() => windField([records[0]!])).toThrow(/U .* and V/)
    expect(() => windField([{ ...records[0]!, data: [1] }, records[1]!])).toThrow(/length/)
  })
})

describe('speedBucket', () => {
  it('buckets in 10 mph steps up to 90', () => {
    expect([0, 9.9, 10, 45, 89, 90, 130].map((s) => speedBucket(s, 10, 90))).toEqual([0, 0, 1, 4, 8, 9, 9])
  })
})
