import { cssGradient } from '../../shared/colorRamp'
import { resolveColor, type GradientLegend as GradientLegendConfig, type Legend } from '../../shared/config'
import { glyphPath } from '../../shared/iconGlyphs'
import './legend.css'
import { gradientTicks, legendSwatches, type LegendSwatch, type SwatchLegend } from './legendMaths'

function GradientLegend({ legend }: { legend: GradientLegendConfig }) {
  const ticks = gradientTicks(legend.stops, legend.unit)
  return (
    <div className="el-legend-gradient" data-legend={legend.id}>
      <div className="el-legend-bar" style={{ background: cssGradient(legend, resolveColor, 'even') }} />
      <div className="el-legend-ticks">
        {ticks.map((t, i) => (
          <span
            key={`${t.label}-${i}`}
            style={{ left: `${t.percent}%` }}
            className={i === 0 ? 'first' : i === ticks.length - 1 ? 'last' : undefined}
          >
            {t.label}
          </span>
        ))}
      </div>
    </div>
  )
}

/** The mark before a swatch's label, by legend kind (exhaustive over the generated union). */
function SwatchMark({ kind, swatch }: { kind: SwatchLegend['type']; swatch: LegendSwatch }) {
  switch (kind) {
    case 'line':
      return (
        <span className="el-swatch-line" style={{ background: swatch.color, height: swatch.width ?? 3 }} />
      )
    case 'circle':
      return <span className="el-swatch-circle" style={{ background: swatch.color }} />
    case 'icons':
      return (
        <svg className="el-swatch-icon" viewBox="0 0 24 24" width={18} height={18} aria-hidden>
          <circle cx={12} cy={12} r={12} fill={swatch.color} />
          <path
            d={glyphPath(swatch.icon ?? 'unknown')}
            fill="#fff"
            stroke="#fff"
            strokeWidth={1.2}
            fillRule="evenodd"
          />
        </svg>
      )
    case 'classes':
    case 'fill':
    case 'scale':
      return <span className="el-swatch-fill" style={{ background: swatch.color }} />
    default: {
      const unhandled: never = kind
      throw new Error(`Unhandled legend kind ${String(unhandled)}`)
    }
  }
}

/** One legend from config: a labelled gradient bar, or a list of swatches (classes, lines, fills, icons…). */
export function LegendView({ legend, hideTitle = false }: { legend: Legend; hideTitle?: boolean }) {
  const title = !hideTitle && legend.title ? <div className="el-legend-title">{legend.title}</div> : null
  if (legend.type === 'gradient')
    return (
      <div className="el-legend">
        {title}
        <GradientLegend legend={legend} />
      </div>
    )
  return (
    <div className="el-legend" data-legend={legend.id}>
      {title}
      <ul className="el-legend-list">
        {legendSwatches(legend).map((s) => (
          <li key={s.label}>
            <SwatchMark kind={legend.type} swatch={s} />
            <span>{s.label}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
