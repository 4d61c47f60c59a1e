import { useCallback, useState, type KeyboardEvent } from 'react'

export interface GridCell {
  row: number
  col: number
}

/** Where a key moves the active cell of a rows × cols grid (row -1 is the header); null if it does not. */
export function nextCell(
  key: string,
  ctrl: boolean,
  at: GridCell,
  rows: number,
  cols: number,
): GridCell | null {
  const clampRow = (r: number) => Math.max(-1, Math.min(rows - 1, r))
  const clampCol = (c: number) => Math.max(0, Math.min(cols - 1, c))
  switch (key) {
    case 'ArrowUp':
      return { row: clampRow(at.row - 1), col: at.col }
    case 'ArrowDown':
      return { row: clampRow(at.row + 1), col: at.col }
    case 'ArrowLeft':
      return { row: at.row, col: clampCol(at.col - 1) }
    case 'ArrowRight':
      return { row: at.row, col: clampCol(at.col + 1) }
    case 'Home':
      return ctrl ? { row: -1, col: 0 } : { row: at.row, col: 0 }
    case 'End':
      return ctrl ? { row: clampRow(rows - 1), col: cols - 1 } : { row: at.row, col: cols - 1 }
    case 'PageUp':
      return { row: clampRow(at.row - 10), col: at.col }
    case 'PageDown':
      return { row: clampRow(at.row + 10), col: at.col }
    default:
      return null
  }
}

/**
 * Roving-tabindex keyboard navigation for a data grid (WAI-ARIA grid pattern): one cell is in the
 * tab order, arrows/Home/End/PageUp/PageDown move it, Enter or Space activates a button inside it.
 */
export function useGridKeyboard(rows: number, cols: number) {
  const [active, setActive] = useState<GridCell>({ row: -1, col: 0 })
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-cell]')
      if ((event.key === 'Enter' || event.key === ' ') && cell === event.target) {
        const button = cell.querySelector<HTMLButtonElement>('button:not([disabled])')
        if (button) {
          event.preventDefault()
          button.click()
        }
        return
      }
      const next = nextCell(event.key, event.ctrlKey || event.metaKey, active, rows, cols)
      if (!next) return
      event.preventDefault()
      setActive(next)
      const grid = event.currentTarget
      requestAnimationFrame(() =>
        grid
          .querySelector<HTMLElement>(`[data-cell="${next.row}:${next.col}"]`)
          ?.focus({ preventScroll: false }),
      )
    },
    [active, rows, cols],
  )
  const tabIndexOf = (row: number, col: number) => {
    const r = Math.min(active.row, rows - 1)
    return r === row && Math.min(active.col, cols - 1) === col ? 0 : -1
  }
  return { onKeyDown, tabIndexOf, setActive }
}
