import { PopoverNext, Tag } from '@blueprintjs/core'
import { useState } from 'react'
import { sourceById, type LayerDefinition } from '../../shared/config'
import './feedBadge.css'
import { layerSourceIds, unavailableSources } from './sourceStatus'
import type { SourceStatus } from './sourceStatus'
import { useSourceStatus } from './useSourceStatus'

/** Polls the status only for layers drawn from another server (our own tiles have no upstream). */
const EXTERNAL = new Set([
  'xyz',
  'wms',
  'wmts',
  'arcgis-mapserver',
  'arcgis-featureserver',
  'ogc-features',
  'geojson',
  'tilejson',
  'pmtiles',
  'cog',
])

function Detail({ layerId, down }: { readonly layerId: string; readonly down: readonly SourceStatus[] }) {
  return (
    <div className="el-feed-detail" data-testid={`${layerId}-source-detail`}>
      <ul>
        {down.map((s) => (
          <li key={s.id} data-source={s.id}>
            <Tag minimal round intent="danger" className="el-feed-detail-state">
              Unavailable
            </Tag>
            <strong>
              {s.kind} · {s.host ?? 'file on the server'}
            </strong>
            <p>
              {s.message ?? 'the server does not answer'}. Cached tiles are still shown; this clears by itself
              when it answers.
            </p>
          </li>
        ))}
      </ul>
    </div>
  )
}

function Badge({ layer }: { readonly layer: LayerDefinition }) {
  const statuses = useSourceStatus()
  const [open, setOpen] = useState(false)
  const down = unavailableSources(layer, statuses)
  if (down.length === 0) return null
  return (
    <PopoverNext
      isOpen={open}
      onInteraction={setOpen}
      placement="bottom-end"
      autoFocus={false}
      enforceFocus={false}
      className="el-feed-badge-target"
      popoverClassName="el-feed-detail-popover"
      content={<Detail layerId={layer.id} down={down} />}
    >
      <Tag
        minimal
        round
        interactive
        intent="danger"
        className="el-feed-badge"
        data-testid={`${layer.id}-source-status`}
        aria-label={`${layer.name}: source unavailable. Show why`}
        aria-expanded={open}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false)
        }}
      >
        Unavailable
      </Tag>
    </PopoverNext>
  )
}

/**
 * "Unavailable" on the row of a layer drawn from another server while that server fails (the
 * proxy's reason in a popover, like a stale feed's badge); it clears by itself when the server
 * answers again. Nothing for layers drawn from our own tiles.
 */
export function SourceStatusBadge({ layer }: { readonly layer: LayerDefinition }) {
  const external = layerSourceIds(layer).some((id) => {
    try {
      return EXTERNAL.has(sourceById(id).type)
    } catch {
      return false
    }
  })
  return external ? <Badge layer={layer} /> : null
}
