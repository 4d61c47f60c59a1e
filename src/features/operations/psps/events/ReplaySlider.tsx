import { Button, Slider, Tag } from '@blueprintjs/core'
import { formatDate } from '../../../../shared/format'

const MINUTE = 60_000

export interface ReplaySliderProps {
  /** [first, last] moment of the event (ms). */
  readonly range: readonly [number, number]
  /** The moment replayed, or null for now (live). */
  readonly at: number | null
  readonly offCount: number
  readonly onChange: (at: number | null) => void
}

/** A slider over the event's time: the map and the count show which circuits were off at the moment chosen. */
export function ReplaySlider({ range, at, offCount, onChange }: ReplaySliderProps) {
  const [start, end] = range
  const max = Math.max(1, Math.ceil((end - start) / MINUTE))
  const value = at === null ? max : Math.min(max, Math.max(0, Math.round((at - start) / MINUTE)))
  const shown = at ?? null
  return (
    <div className="el-psps-replay">
      <div className="el-ops-header">
        <h3 id="el-psps-replay-title">Replay</h3>
        <Tag
          minimal
          round
          intent={offCount > 0 ? 'danger' : 'success'}
          className="el-psps-replay-count"
          data-off={offCount}
          aria-live="polite"
        >
          {offCount} {offCount === 1 ? 'circuit' : 'circuits'} off{' '}
          {shown === null ? 'now' : `at ${formatDate(shown)}`}
        </Tag>
        <span className="el-ops-spacer" />
        <Button
          size="small"
          variant="minimal"
          icon="time"
          text="Now"
          disabled={at === null}
          onClick={() => onChange(null)}
        />
      </div>
      <div className="el-psps-replay-slider">
        <Slider
          min={0}
          max={max}
          stepSize={1}
          labelValues={[0, max]}
          value={value}
          onChange={(v) => onChange(start + v * MINUTE)}
          labelRenderer={(v, opts) =>
            opts?.isHandleTooltip ? formatDate(start + v * MINUTE) : v === 0 ? 'Start' : 'End'
          }
          handleHtmlProps={{ 'aria-label': 'Replay time' }}
        />
      </div>
    </div>
  )
}
