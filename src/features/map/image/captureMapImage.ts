/** A drawable piece of the map: a tile canvas, a tile image or an overlay canvas. */
type Piece = HTMLCanvasElement | HTMLImageElement

const zIndexOf = (el: Element | null): number => {
  if (!el) return 0
  const z = Number.parseInt(getComputedStyle(el).zIndex, 10)
  return Number.isFinite(z) ? z : 0
}

/**
 * The opacity the piece is drawn with: its own times every ancestor's up to the map container. A
 * loaded tile's own opacity is only Leaflet's fade-in (the layer's opacity is on its container), so
 * it counts as 1: the picture does not wait for the fade to end.
 */
function effectiveOpacity(el: Element, container: Element): number {
  let opacity = 1
  const start = el.classList.contains('leaflet-tile') ? el.parentElement : el
  for (let node: Element | null = start; node && node !== container; node = node.parentElement) {
    const o = Number.parseFloat(getComputedStyle(node).opacity)
    if (Number.isFinite(o)) opacity *= o
  }
  return opacity
}

const drawable = (el: Piece): boolean =>
  el instanceof HTMLCanvasElement ? el.width > 0 && el.height > 0 : el.complete && el.naturalWidth > 0

/** Stacking key: the pane's z-index, then the layer's within it (Leaflet sets both inline). */
function stackKey(el: Element): [number, number] {
  return [zIndexOf(el.closest('.leaflet-pane')), zIndexOf(el.closest('.leaflet-layer'))]
}

/**
 * The map as one PNG (a Blob): every tile and overlay canvas or image inside the Leaflet
 * container drawn where it is on screen, in stacking order, with its opacity, over the
 * container's background, at `scale` × the screen size (print resolution). The PNG is encoded by
 * `toBlob`, off the main thread (`toDataURL` of the 1920 × 1080 picture held it for hundreds of
 * milliseconds). Same-origin tiles only (ours), so the canvas is never tainted; null if it is
 * anyway or nothing is drawn yet.
 */
export function captureMapImage(container: HTMLElement, scale = 2): Promise<Blob | null> {
  const canvas = drawMap(container, scale)
  if (!canvas) return Promise.resolve(null)
  return new Promise((resolve) => {
    try {
      canvas.toBlob((blob) => resolve(blob), 'image/png')
    } catch {
      resolve(null)
    }
  })
}

/** The map drawn into a new canvas, or null when nothing could be drawn. */
function drawMap(container: HTMLElement, scale: number): HTMLCanvasElement | null {
  const box = container.getBoundingClientRect()
  if (box.width === 0 || box.height === 0) return null
  const canvas = document.createElement('canvas')
  canvas.width = Math.round(box.width * scale)
  canvas.height = Math.round(box.height * scale)
  const ctx = canvas.getContext('2d')
  if (!ctx) return null
  ctx.scale(scale, scale)
  ctx.fillStyle = getComputedStyle(container).backgroundColor || '#1c2127'
  ctx.fillRect(0, 0, box.width, box.height)
  const pieces = [...container.querySelectorAll<Piece>('.leaflet-pane canvas, .leaflet-pane img')]
    .filter(drawable)
    .map((el, order) => ({ el, order, key: stackKey(el) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.order - b.order)
  let drawn = 0
  for (const { el } of pieces) {
    const r = el.getBoundingClientRect()
    if (r.width === 0 || r.right < box.left || r.left > box.right || r.bottom < box.top || r.top > box.bottom)
      continue
    ctx.globalAlpha = effectiveOpacity(el, container)
    try {
      ctx.drawImage(el, r.left - box.left, r.top - box.top, r.width, r.height)
      drawn++
    } catch {
      // A piece that cannot be drawn (decoding failed) is left out.
    }
  }
  return drawn === 0 ? null : canvas
}
