import { describe, expect, it } from 'vitest'
import { DOCK_BAR_PX, dockSizes, dragRange, keyedHeight, MAP_MIN_DRAGGED_PX } from './dockSizes'

const panel = (
  id: string,
  over: Partial<{ collapsed: boolean; userHeight: number | null; preferred: number }> = {},
) => ({
  id,
  collapsed: false,
  userHeight: null,
  preferred: Number.POSITIVE_INFINITY,
  ...over,
})
const total = (sizes: Record<string, number>) => Object.values(sizes).reduce((a, b) => a + b, 0)

describe('dockSizes', () => {
  it('leaves the map half the viewport with the route panel and a table open (desktop and phone)', () => {
    for (const [viewportHeight, columnHeight] of [
      [900, 855],
      [844, 799],
    ] as const) {
      const sizes = dockSizes({
        viewportHeight,
        columnHeight,
        panels: [panel('route'), panel('tables', { preferred: 400 })],
      })
      expect(columnHeight - total(sizes)).toBeGreaterThanOrEqual(viewportHeight / 2)
      expect(sizes.route).toBeGreaterThan(DOCK_BAR_PX)
      expect(sizes.tables).toBeGreaterThan(DOCK_BAR_PX)
    }
  })

  it('gives what one panel does not want to the other', () => {
    const sizes = dockSizes({
      viewportHeight: 900,
      columnHeight: 855,
      panels: [panel('route'), panel('tables', { preferred: 100 })],
    })
    expect(sizes.tables).toBe(100)
    expect(sizes.route).toBe(855 - 450 - 100)
  })

  it('a collapsed panel keeps only its bar and gives its share to the map, not to the other panel', () => {
    const input = { viewportHeight: 900, columnHeight: 855 }
    const open = dockSizes({ ...input, panels: [panel('route'), panel('tables', { preferred: 400 })] })
    const sizes = dockSizes({
      ...input,
      panels: [panel('route', { collapsed: true }), panel('tables', { preferred: 400 })],
    })
    expect(sizes.route).toBe(DOCK_BAR_PX)
    expect(Math.abs((sizes.tables ?? 0) - (open.tables ?? 0))).toBeLessThanOrEqual(1)
    expect(855 - total(sizes)).toBeGreaterThan(855 - total(open))
  })

  it('keeps a height the user chose, even past half the viewport', () => {
    const sizes = dockSizes({
      viewportHeight: 900,
      columnHeight: 855,
      panels: [panel('route', { userHeight: 600 }), panel('tables')],
    })
    expect(sizes.route).toBe(600)
    expect(sizes.tables).toBe(DOCK_BAR_PX)
  })
})

describe('dragRange and keyedHeight', () => {
  it('a drag may not leave the map smaller than its minimum', () => {
    expect(dragRange(855, 200).max).toBe(855 - 200 - MAP_MIN_DRAGGED_PX)
  })

  it('arrow keys move by 16 px, Page keys by a tenth of the viewport, Home/End to the ends', () => {
    const range = { min: 80, max: 600 }
    expect(keyedHeight('ArrowUp', 300, range, 900)).toBe(316)
    expect(keyedHeight('ArrowDown', 300, range, 900)).toBe(284)
    expect(keyedHeight('PageUp', 300, range, 900)).toBe(390)
    expect(keyedHeight('Home', 300, range, 900)).toBe(600)
    expect(keyedHeight('End', 300, range, 900)).toBe(80)
    expect(keyedHeight('ArrowDown', 85, range, 900)).toBe(80)
    expect(keyedHeight('Tab', 300, range, 900)).toBeNull()
  })
})
