import type Point from '@mapbox/point-geometry'
import { CircleSymbolizer, LineSymbolizer, PolygonSymbolizer } from 'protomaps-leaflet'
import type { Feature, PaintRule, PaintSymbolizer } from 'protomaps-leaflet'
import type { CompiledPaintStyle } from './compilePaintStyle'
import { glyphPath } from '../../../shared/iconGlyphs'

/** Draws a coloured disc with our white glyph at each point feature. */
class GlyphSymbolizer implements PaintSymbolizer {
  private readonly paths = new Map<string, Path2D>()
  constructor(private readonly style: CompiledPaintStyle) {}

  private path(icon: string): Path2D {
    let p = this.paths.get(icon)
    if (!p) {
      p = new Path2D(glyphPath(icon))
      this.paths.set(icon, p)
    }
    return p
  }

  draw(ctx: CanvasRenderingContext2D, geom: Point[][], _z: number, feature: Feature): void {
    const { icon, color } = this.style.iconOf(feature.props)
    const r = this.style.radius
    ctx.globalAlpha = this.style.opacity
    for (const ring of geom) {
      for (const pt of ring) {
        ctx.save()
        ctx.fillStyle = color
        ctx.strokeStyle = '#111418'
        ctx.lineWidth = 1.5
        ctx.beginPath()
        ctx.arc(pt.x, pt.y, r, 0, 2 * Math.PI)
        ctx.fill()
        ctx.stroke()
        const k = (r * 1.5) / 24
        ctx.translate(pt.x - 12 * k, pt.y - 12 * k)
        ctx.scale(k, k)
        ctx.fillStyle = '#ffffff'
        ctx.strokeStyle = '#ffffff'
        ctx.lineWidth = 1.6
        ctx.fill(this.path(icon), 'evenodd')
        ctx.stroke(this.path(icon))
        ctx.restore()
      }
    }
  }
}

function symbolizer(style: CompiledPaintStyle, now: () => number): PaintSymbolizer | null {
  const color = (_z: number, f?: Feature) => style.colorOf(f?.props ?? {}, now())
  switch (style.type) {
    case 'line':
      return new LineSymbolizer({
        color,
        width: style.width,
        opacity: style.opacity,
        lineCap: 'round',
        lineJoin: 'round',
      })
    case 'fill':
      return new PolygonSymbolizer({ fill: color, opacity: style.opacity, perFeature: true })
    case 'circle':
      return new CircleSymbolizer({
        fill: color,
        radius: style.radius,
        opacity: style.opacity,
        stroke: '#111418',
        width: 0,
      })
    case 'icon':
      return new GlyphSymbolizer(style)
    case 'raster':
    case 'particles':
      return null
    default: {
      const unhandled: never = style.type
      throw new Error(`No vector symbolizer for ${String(unhandled)}`)
    }
  }
}

/** protomaps-leaflet paint rules for a compiled vector style (raster and particle styles have none). */
export function toPaintRules(style: CompiledPaintStyle, now: () => number): PaintRule[] {
  const sym = symbolizer(style, now)
  if (!sym) return []
  const filter = style.filter
  return [
    {
      id: style.mapLayerId,
      dataLayer: style.dataLayer,
      symbolizer: sym,
      filter: filter ? (_z: number, f: Feature) => filter(f.props) : undefined,
    },
  ]
}
