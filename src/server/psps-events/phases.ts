import type { PspsPhase } from '../store/pspsEventStore'

/**
 * Which phase may follow which. An event starts at `watch`; it can be stood down (`closed`) before
 * any circuit is switched off; once de-energized it goes through patrol to restoration, and may be
 * de-energized again (the weather returns) before it is closed. `closed` is final.
 */
export const PHASE_TRANSITIONS: Readonly<Record<PspsPhase, readonly PspsPhase[]>> = {
  watch: ['warning', 'closed'],
  warning: ['watch', 'de-energized', 'closed'],
  'de-energized': ['patrolling', 'restored'],
  patrolling: ['de-energized', 'restored'],
  restored: ['de-energized', 'closed'],
  closed: [],
}

export function canMove(from: PspsPhase, to: PspsPhase): boolean {
  return PHASE_TRANSITIONS[from].includes(to)
}
