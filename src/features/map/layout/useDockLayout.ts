import { useCallback, useMemo, useState } from 'react'
import { dockSizes, dragRange, type DockPanel } from './dockSizes'

interface PanelChoice {
  readonly collapsed: boolean
  readonly userHeight: number | null
}

/** A docked panel as the screen asks for it: id, whether it is shown, and the most it wants (px). */
export interface DockRequest {
  readonly id: string
  readonly shown: boolean
  readonly preferred: number
}

/** Everything a DockedPanel needs, by panel id. */
export interface DockSlot {
  readonly height: number
  readonly collapsed: boolean
  readonly range: { readonly min: number; readonly max: number }
  readonly onResize: (height: number) => void
  readonly onToggle: () => void
}

/**
 * Sizes of the panels docked beneath the map (dockSizes) with the user's choices: collapsed or not,
 * and the height a panel was dragged or keyed to. Choices survive while the screen is mounted.
 */
export function useDockLayout(
  requests: readonly DockRequest[],
  columnHeight: number,
  viewportHeight: number,
): Record<string, DockSlot> {
  const [choices, setChoices] = useState<Record<string, PanelChoice>>({})
  const choose = useCallback(
    (id: string, change: (c: PanelChoice) => PanelChoice) =>
      setChoices((all) => ({ ...all, [id]: change(all[id] ?? { collapsed: false, userHeight: null }) })),
    [],
  )
  return useMemo(() => {
    const shown = requests.filter((r) => r.shown)
    const panels: DockPanel[] = shown.map((r) => ({
      id: r.id,
      preferred: r.preferred,
      collapsed: choices[r.id]?.collapsed ?? false,
      userHeight: choices[r.id]?.userHeight ?? null,
    }))
    const sizes = dockSizes({ viewportHeight, columnHeight, panels })
    const slots: Record<string, DockSlot> = {}
    for (const p of panels) {
      const height = sizes[p.id] ?? 0
      const others = panels.reduce((sum, o) => sum + (o.id === p.id ? 0 : (sizes[o.id] ?? 0)), 0)
      slots[p.id] = {
        height,
        collapsed: p.collapsed,
        range: dragRange(columnHeight, others),
        onResize: (h) => choose(p.id, (c) => ({ ...c, userHeight: h })),
        onToggle: () => choose(p.id, (c) => ({ ...c, collapsed: !c.collapsed })),
      }
    }
    return slots
  }, [requests, choices, columnHeight, viewportHeight, choose])
}
