import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { ZoomToButton } from './ZoomToButton'

// Leaflet needs a window: the map and the zoom are stubbed (a map is present).
vi.mock('../map', () => ({ useMapHighlighter: () => ({}) }))
vi.mock('./zoomToBbox', () => ({ zoomToBbox: () => undefined }))

describe('ZoomToButton', () => {
  it('is disabled and says so for a record without a location (bbox null)', () => {
    const html = renderToStaticMarkup(<ZoomToButton value={null} />)
    expect(html).toContain('disabled')
    expect(html).toContain('aria-label="No location: not on the map"')
  })

  it('is enabled with its name for a record with a bbox', () => {
    const html = renderToStaticMarkup(<ZoomToButton value={[-106.6, 35, -106.5, 35.1]} />)
    expect(html).toContain('aria-label="Zoom to feature"')
    expect(html).not.toContain('disabled')
  })
})
