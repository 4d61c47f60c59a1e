import { Button, FormGroup, NumericInput } from '@blueprintjs/core'
import { appConfig } from '../../../shared/config'
import type { MitigationFactorInfo } from './mitigationApi'

export interface WeightControlsProps {
  readonly factors: readonly MitigationFactorInfo[]
  /** The text of each input (what the user typed, or the weight in use). */
  readonly texts: Readonly<Record<string, string>>
  /** Factor ids whose text is not a weight (0 or more). */
  readonly invalid: ReadonlySet<string>
  readonly onChange: (factorId: string, text: string) => void
  readonly onReset: () => void
  /** Whether the weights differ from the config defaults. */
  readonly changed: boolean
}

const percent = new Intl.NumberFormat(appConfig.formatting.locale, {
  style: 'percent',
  maximumFractionDigits: 0,
})

/**
 * One numeric input per consequence factor, its share of the weights, and 'Reset to defaults'.
 * The inputs keep Blueprint's own ids (its stepper buttons' aria-controls name them) and are
 * labelled through aria-labelledby.
 */
export function WeightControls({ factors, texts, invalid, onChange, onReset, changed }: WeightControlsProps) {
  return (
    <div className="el-mitigation-weights" role="group" aria-label="Weights">
      {factors.map((f) => (
        <FormGroup
          key={f.id}
          label={<span id={`el-mitigation-weight-${f.id}-label`}>{f.label}</span>}
          helperText={invalid.has(f.id) ? 'a number, 0 or more' : `${percent.format(f.share)} of the weights`}
          intent={invalid.has(f.id) ? 'danger' : 'none'}
        >
          <NumericInput
            aria-labelledby={`el-mitigation-weight-${f.id}-label`}
            data-factor={f.id}
            value={texts[f.id] ?? ''}
            min={0}
            stepSize={0.05}
            minorStepSize={0.01}
            majorStepSize={0.1}
            size="small"
            fill
            intent={invalid.has(f.id) ? 'danger' : 'none'}
            onValueChange={(_n, text) => onChange(f.id, text)}
          />
        </FormGroup>
      ))}
      <Button size="small" icon="reset" disabled={!changed} onClick={onReset}>
        Reset to defaults
      </Button>
    </div>
  )
}
