import { Button } from '@blueprintjs/core'
import { useRef, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react'
import { keyedHeight } from './dockSizes'

export interface DockedPanelProps {
  readonly id: string
  /** Names the panel, its resize handle and its collapse button. */
  readonly title: string
  /** Height in px, bar included. */
  readonly height: number
  readonly collapsed: boolean
  /** Range the handle may move the height within. */
  readonly range: { readonly min: number; readonly max: number }
  readonly viewportHeight: number
  readonly onResize: (height: number) => void
  readonly onToggle: () => void
  readonly children: ReactNode
}

/**
 * A panel docked beneath the map: a bar with a resize handle (drag it, or focus it and use the arrow,
 * Page, Home and End keys — a WAI-ARIA window splitter) and a collapse button, above the content.
 */
export function DockedPanel(props: DockedPanelProps) {
  const { id, title, height, collapsed, range, viewportHeight, onResize, onToggle, children } = props
  const drag = useRef<{ y: number; height: number } | null>(null)
  const bodyId = `${id}-body`

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (collapsed || e.button !== 0) return
    e.currentTarget.setPointerCapture(e.pointerId)
    drag.current = { y: e.clientY, height }
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return
    const h = drag.current.height + (drag.current.y - e.clientY)
    onResize(Math.min(range.max, Math.max(range.min, Math.round(h))))
  }
  const endDrag = () => {
    drag.current = null
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (collapsed) return
    const h = keyedHeight(e.key, height, range, viewportHeight)
    if (h === null) return
    e.preventDefault()
    onResize(h)
  }

  return (
    <section
      className={`el-dock${collapsed ? ' el-dock-collapsed' : ''}`}
      style={{ height }}
      aria-label={`${title} panel`}
      data-dock={id}
    >
      <div className="el-dock-bar">
        <div
          role="separator"
          className="el-dock-handle"
          tabIndex={collapsed ? -1 : 0}
          aria-orientation="horizontal"
          aria-label={`Resize ${title}`}
          aria-controls={bodyId}
          aria-valuemin={range.min}
          aria-valuemax={range.max}
          aria-valuenow={height}
          aria-valuetext={`${title}: ${height} pixels high`}
          aria-disabled={collapsed || undefined}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onKeyDown={onKeyDown}
        >
          <span className="el-dock-title">{title}</span>
          <span className="el-dock-grip" aria-hidden="true" />
        </div>
        <Button
          size="small"
          variant="minimal"
          icon={collapsed ? 'chevron-up' : 'chevron-down'}
          aria-label={collapsed ? `Show ${title}` : `Hide ${title}`}
          aria-expanded={!collapsed}
          aria-controls={bodyId}
          className="el-dock-toggle"
          onClick={onToggle}
        />
      </div>
      <div id={bodyId} className="el-dock-body" hidden={collapsed}>
        {children}
      </div>
    </section>
  )
}
