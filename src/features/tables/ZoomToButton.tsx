import { Button } from '@blueprintjs/core'
import { useLeafletMap } from '../map/mapContext'
import { parseBbox } from './parseBbox'
import { zoomToBbox } from './zoomToBbox'

/** The `bbox` column's action: fit the map to the feature and outline it. */
export function ZoomToButton({ value }: { value: unknown }) {
  const map = useLeafletMap()
  const bbox = parseBbox(value)
  return (
    <Button
      size="small"
      variant="minimal"
      icon="zoom-to-fit"
      tabIndex={-1}
      aria-label="Zoom to feature"
      title="Zoom to feature"
      className="emberline-zoom-to"
      disabled={!map || !bbox}
      onClick={() => {
        if (map && bbox) zoomToBbox(map, bbox)
      }}
    />
  )
}
