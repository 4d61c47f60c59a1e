import { Button } from '@blueprintjs/core'
import { useMapHighlighter } from '../map'
import { parseBbox } from './parseBbox'
import { zoomToBbox } from './zoomToBbox'

/**
 * The `bbox` column's action: fit the map to the feature and outline it. Disabled for a record
 * without a location (`bbox: null`, e.g. a zone-only alert kept as a record).
 */
export function ZoomToButton({ value }: { value: unknown }) {
  const highlighter = useMapHighlighter()
  const bbox = parseBbox(value)
  const label = bbox ? 'Zoom to feature' : 'No location: not on the map'
  return (
    <Button
      size="small"
      variant="minimal"
      icon="zoom-to-fit"
      tabIndex={-1}
      aria-label={label}
      title={label}
      className="emberline-zoom-to"
      disabled={!highlighter || !bbox}
      onClick={() => {
        if (highlighter && bbox) zoomToBbox(highlighter, bbox)
      }}
    />
  )
}
