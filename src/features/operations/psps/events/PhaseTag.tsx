import { Tag, type Intent } from '@blueprintjs/core'
import type { PspsPhase } from './eventsApi'

const INTENT: Readonly<Record<PspsPhase, Intent>> = {
  watch: 'none',
  warning: 'warning',
  'de-energized': 'danger',
  patrolling: 'warning',
  restored: 'success',
  closed: 'none',
}

/** An event phase as a coloured tag. */
export function PhaseTag({ phase }: { readonly phase: PspsPhase }) {
  return (
    <Tag minimal round intent={INTENT[phase]} className="el-psps-phase" data-phase={phase}>
      {phase}
    </Tag>
  )
}
