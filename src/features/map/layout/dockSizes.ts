/** Height of a docked panel's bar (title, resize handle, collapse button), all a collapsed panel keeps. */
export const DOCK_BAR_PX = 32
/** Smallest body a panel can be dragged to. */
export const PANEL_MIN_BODY_PX = 48
/** Smallest map a drag may leave (the map keeps half the viewport unless the user drags it smaller). */
export const MAP_MIN_DRAGGED_PX = 96

/** One panel docked beneath the map. */
export interface DockPanel {
  readonly id: string
  readonly collapsed: boolean
  /** Height the user dragged or keyed it to (bar included), or null: sized automatically. */
  readonly userHeight: number | null
  /** Most the panel wants when sized automatically (bar included). */
  readonly preferred: number
}

export interface DockInput {
  /** The browser window's inner height. */
  readonly viewportHeight: number
  /** Height of the column the map and the panels share. */
  readonly columnHeight: number
  readonly panels: readonly DockPanel[]
}

/**
 * Heights (px, bar included) of the panels beneath the map. A collapsed panel keeps its bar and gives
 * its share to the map; a panel the user sized keeps its size (dragRange keeps the map at least
 * `MAP_MIN_DRAGGED_PX`); the others share what is left once the map has half the viewport, each up to
 * its preferred height.
 */
export function dockSizes({ viewportHeight, columnHeight, panels }: DockInput): Record<string, number> {
  const sizes: Record<string, number> = {}
  const userSized = panels.filter((p) => !p.collapsed && p.userHeight !== null)
  for (const p of userSized) sizes[p.id] = p.userHeight ?? 0
  const sharing = panels.filter((p) => p.collapsed || p.userHeight === null)
  let budget = Math.max(
    0,
    columnHeight - Math.ceil(viewportHeight / 2) - userSized.reduce((sum, p) => sum + (p.userHeight ?? 0), 0),
  )
  // A collapsed panel's share goes to the map, not to the other panels.
  const share = sharing.length > 0 ? Math.floor(budget / sharing.length) : 0
  for (const p of sharing.filter((q) => q.collapsed)) {
    sizes[p.id] = DOCK_BAR_PX
    budget = Math.max(0, budget - Math.max(share, DOCK_BAR_PX))
  }
  // Smallest wishes first, so what one panel does not want goes to the others.
  const expanded = sharing.filter((p) => !p.collapsed).sort((a, b) => a.preferred - b.preferred)
  expanded.forEach((p, i) => {
    const h = Math.max(DOCK_BAR_PX, Math.min(p.preferred, Math.floor(budget / (expanded.length - i))))
    sizes[p.id] = h
    budget = Math.max(0, budget - h)
  })
  return sizes
}

/** The range a panel may be dragged or keyed within, given the other panels' current heights. */
export function dragRange(columnHeight: number, othersHeight: number): { min: number; max: number } {
  const min = DOCK_BAR_PX + PANEL_MIN_BODY_PX
  return { min, max: Math.max(min, columnHeight - othersHeight - MAP_MIN_DRAGGED_PX) }
}

/** The height a resize key moves a panel to (the handle is above the panel: up makes it taller). */
export function keyedHeight(
  key: string,
  height: number,
  range: { min: number; max: number },
  viewportHeight: number,
): number | null {
  const step = 16
  const page = Math.round(viewportHeight / 10)
  const next: Record<string, number> = {
    ArrowUp: height + step,
    ArrowDown: height - step,
    PageUp: height + page,
    PageDown: height - page,
    Home: range.max,
    End: range.min,
  }
  const h = next[key]
  return h === undefined ? null : Math.min(range.max, Math.max(range.min, h))
}
