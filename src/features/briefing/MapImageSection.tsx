import { Spinner } from '@blueprintjs/core'
import type { MapImage } from '../map'

export interface MapImageSectionProps {
  readonly image: MapImage
  /** Section heading (default: Map). */
  readonly title?: string
  /** The picture's text alternative. */
  readonly alt?: string
}

/** The map view as printed: the picture, or why there is none. */
export function MapImageSection({
  image,
  title = 'Map',
  alt = 'The map view of this briefing',
}: MapImageSectionProps) {
  const view =
    image.center && image.zoom !== null
      ? `Centre ${image.center[1].toFixed(4)}°, ${image.center[0].toFixed(4)}° · zoom ${image.zoom.toFixed(1)}`
      : ''
  return (
    <section className="el-briefing-section el-briefing-map" aria-labelledby="briefing-map">
      <h2 id="briefing-map">{title}</h2>
      <figure data-testid="briefing-map" data-status={image.status}>
        {image.url ? (
          <img src={image.url} alt={alt} data-testid="briefing-map-image" />
        ) : image.status === 'waiting' ? (
          <>
            <Spinner className="el-briefing-screen-only" size={32} aria-label="Drawing the map" />
            {/* printed from the browser's menu before the picture was taken */}
            <p className="el-briefing-print-only">
              The map was still being drawn when this page was printed.
            </p>
          </>
        ) : (
          <p>The map could not be drawn.</p>
        )}
        <figcaption className="bp6-text-muted">
          {view}
          <span className="el-briefing-screen-only"> — move the map above to change the printed view.</span>
        </figcaption>
      </figure>
    </section>
  )
}
