import { describe, expect, it } from 'vitest'
import { CELL_BITS, countCells } from './aggregateCells'

/** The straightforward per-feature count the sorted/merged version must reproduce. */
function naive(xs: number[], ys: number[], zoom: number): Map<string, number> {
  const scale = 2 ** (zoom + CELL_BITS)
  const out = new Map<string, number>()
  xs.forEach((x, i) => {
    const cx = Math.min(Math.floor(x * scale), scale - 1)
    const cy = Math.min(Math.floor((ys[i] as number) * scale), scale - 1)
    out.set(`${cx},${cy}`, (out.get(`${cx},${cy}`) ?? 0) + 1)
  })
  return out
}

describe('countCells', () => {
  it('counts features per cell at every requested zoom like a per-feature count', () => {
    let seed = 7
    const rand = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
    // Clustered like buildings in towns, plus the world's edges (x or y exactly 1).
    const xs: number[] = []
    const ys: number[] = []
    for (let i = 0; i < 20000; i++) {
      const town = i % 5
      xs.push(0.2 + town * 0.001 + rand() * 0.0005)
      ys.push(0.4 + town * 0.0007 + rand() * 0.0005)
    }
    xs.push(1, 0, 0.5)
    ys.push(1, 0, 1)
    const zooms = [0, 3, 7, 8, 11]
    const cells = countCells(xs, ys, zooms)
    expect(cells.map((c) => c.zoom).sort((a, b) => a - b)).toEqual(zooms)
    for (const c of cells) {
      const got = new Map<string, number>()
      for (let i = 0; i < c.n.length; i++) got.set(`${c.cx[i]},${c.cy[i]}`, c.n[i] as number)
      expect(got, `zoom ${c.zoom}`).toEqual(naive(xs, ys, c.zoom))
    }
  })

  it('returns nothing without zooms and empty cells without features', () => {
    expect(countCells([0.5], [0.5], [])).toEqual([])
    expect(countCells([], [], [2]).map((c) => c.n.length)).toEqual([0])
  })
})
