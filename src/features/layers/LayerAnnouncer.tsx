import { useState } from 'react'
import type { LayerDefinition } from '../../shared/config'
import { layerAnnouncement } from './layerAnnouncement'
import './layerAnnouncer.css'
import { useLayerState } from './LayerStateContext'

/**
 * A polite live region (role="status", visually hidden) that tells screen-reader users what a
 * change of the layer state did: "Red Flag Warnings turned on", "PSPS: Wind Speed selected".
 * The state a screen opens with is not announced, only later changes (sidebar, operations views).
 */
export function LayerAnnouncer({ layers }: { readonly layers: readonly LayerDefinition[] }) {
  const { state } = useLayerState()
  const [seen, setSeen] = useState(state)
  const [message, setMessage] = useState('')
  if (seen !== state) {
    // React's "adjust state while rendering" pattern: compare with the state last seen.
    const text = layerAnnouncement(seen, state, layers)
    setSeen(state)
    if (text) setMessage(text)
  }
  return (
    <div
      className="el-visually-hidden"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="layer-announcer"
    >
      {message}
    </div>
  )
}
