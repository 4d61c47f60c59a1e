import { Button, Drawer } from '@blueprintjs/core'
import type { ReactNode } from 'react'

export interface LayersDrawerProps {
  readonly open: boolean
  readonly onOpen: () => void
  readonly onClose: () => void
  /** The layer sidebar. */
  readonly children: ReactNode
}

const DRAWER_ID = 'el-layers-drawer'

/**
 * On phones the layer sidebar is a left-side drawer over the full-width map (the spec's navigation
 * drawer stays on the right), opened by the Layers button on the map; Escape, the backdrop or the
 * close button close it and focus returns to the button.
 */
export function LayersDrawer({ open, onOpen, onClose, children }: LayersDrawerProps) {
  return (
    <>
      <Button
        className="el-layers-toggle"
        icon="layers"
        text="Layers"
        aria-expanded={open}
        aria-controls={DRAWER_ID}
        onClick={onOpen}
      />
      <Drawer
        isOpen={open}
        onClose={onClose}
        position="left"
        size="88%"
        title="Layers"
        className="bp6-dark el-layers-drawer"
        portalClassName="el-layers-drawer-portal"
      >
        <div id={DRAWER_ID} className="el-layers-drawer-body">
          {children}
        </div>
      </Drawer>
    </>
  )
}
