import { describe, expect, it } from 'vitest'
import type { GridRaster } from '../grids/gridRaster'
import { sampleLineMax } from './planningSample'

/** 10×10 one-degree cells over lon 0..10, lat 0..10; value = f(i, j) of cell column i, row j (row 0 north). */
function grid(f: (i: number, j: number) => number): GridRaster {
  const data = new Float32Array(100)
  for (let j = 0; j < 10; j++) for (let i = 0; i < 10; i++) data[j * 10 + i] = f(i, j)
  return { nx: 10, ny: 10, west: 0, east: 10, south: 0, north: 10, data }
}

const line = (...coords: [number, number][]) => [[coords]]

describe('sampleLineMax', () => {
  it('is the grid value on a uniform grid', () => {
    expect(
      sampleLineMax(
        grid(() => 42),
        line([1, 1], [8, 8]),
      ),
    ).toBeCloseTo(42, 5)
  })

  it('finds a peak between two vertices (densified samples)', () => {
    // One hot cell at column 5, row 4 (centre lon 5.5, lat 5.5); the line's vertices are far from it.
    const g = grid((i, j) => (i === 5 && j === 4 ? 90 : 10))
    expect(sampleLineMax(g, line([0.5, 5.5], [9.5, 5.5]))).toBeCloseTo(90, 3)
    // A line passing two rows away never reaches the hot cell's value.
    expect(sampleLineMax(g, line([0.5, 2.5], [9.5, 2.5]))).toBeCloseTo(10, 5)
  })

  it('interpolates bilinearly between cell centres like the tiles', () => {
    // Values rise 1 per column: at lon 3.0 (between centres 2.5 and 3.5) bilinear gives 2.5.
    const g = grid((i) => i)
    expect(sampleLineMax(g, line([3, 5], [3, 6]))).toBeCloseTo(2.5, 5)
  })

  it('takes the maximum over every part of a multi-line', () => {
    const g = grid((i) => i)
    expect(
      sampleLineMax(g, [
        [
          [
            [1.5, 5],
            [2.5, 5],
          ],
        ],
        [
          [
            [7.5, 5],
            [7.5, 6],
          ],
        ],
      ]),
    ).toBeCloseTo(7, 5)
  })

  it('ignores no-data cells and answers NaN outside the grid', () => {
    const g = grid((i) => (i >= 5 ? Number.NaN : 20))
    expect(sampleLineMax(g, line([1.5, 5], [8.5, 5]))).toBeCloseTo(20, 5)
    expect(sampleLineMax(g, line([20, 20], [30, 30]))).toBeNaN()
    expect(sampleLineMax(g, line([6.5, 5], [8.5, 5]))).toBeNaN()
  })
})
