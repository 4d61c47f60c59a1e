import type { CircuitState } from './eventReplay'

/** Colour (theme name) of a circuit in each state, on the map and in the legend. */
export const STATE_COLOURS: Readonly<Record<CircuitState, string>> = {
  on: 'grey5',
  off: 'danger',
  patrolled: 'warning',
  restored: 'success',
}

/** CSS class of a drawn circuit in a state (tests count the paths by it). */
export const circuitClass = (state: CircuitState) => `el-psps-circuit el-psps-circuit-${state}`
