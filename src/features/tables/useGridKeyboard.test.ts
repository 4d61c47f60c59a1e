import { describe, expect, it } from 'vitest'
import { nextCell } from './useGridKeyboard'

describe('nextCell', () => {
  const at = { row: 2, col: 1 }
  it('moves with the arrows and stays inside the grid (header row is -1)', () => {
    expect(nextCell('ArrowDown', false, at, 5, 3)).toEqual({ row: 3, col: 1 })
    expect(nextCell('ArrowUp', false, { row: -1, col: 0 }, 5, 3)).toEqual({ row: -1, col: 0 })
    expect(nextCell('ArrowRight', false, { row: 0, col: 2 }, 5, 3)).toEqual({ row: 0, col: 2 })
    expect(nextCell('ArrowLeft', false, at, 5, 3)).toEqual({ row: 2, col: 0 })
  })
  it('jumps with Home/End (Ctrl for the grid corners) and pages by ten rows', () => {
    expect(nextCell('Home', false, at, 5, 3)).toEqual({ row: 2, col: 0 })
    expect(nextCell('End', true, at, 5, 3)).toEqual({ row: 4, col: 2 })
    expect(nextCell('Home', true, at, 5, 3)).toEqual({ row: -1, col: 0 })
    expect(nextCell('PageDown', false, at, 50, 3)).toEqual({ row: 12, col: 1 })
    expect(nextCell('PageUp', false, at, 50, 3)).toEqual({ row: -1, col: 1 })
  })
  it('ignores other keys', () => {
    expect(nextCell('a', false, at, 5, 3)).toBeNull()
  })
})
