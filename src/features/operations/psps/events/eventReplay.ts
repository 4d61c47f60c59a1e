/** One de-energization of a circuit: switched off at `off`, patrolled at `patrolled`, back on at `on` (ms). */
export interface OffPeriod {
  readonly off: number
  readonly patrolled: number | null
  readonly on: number | null
}

/** A circuit's history in an event: its de-energizations in time order. */
export interface CircuitHistory {
  readonly circuit: string
  readonly periods: readonly OffPeriod[]
}

/**
 * A circuit's state at one moment: `on` (not yet switched off in this event), `off` (de-energized),
 * `patrolled` (still off, the line patrolled since), `restored` (switched back on after being off).
 */
export type CircuitState = 'on' | 'off' | 'patrolled' | 'restored'

/** The circuit's state at time `t` (ms). A period whose restoration is unknown is still open. */
export function stateAt(history: CircuitHistory, t: number): CircuitState {
  let state: CircuitState = 'on'
  for (const p of history.periods) {
    if (p.off > t) break
    if (p.on !== null && p.on <= t) {
      state = 'restored'
      continue
    }
    return p.patrolled !== null && p.patrolled >= p.off && p.patrolled <= t ? 'patrolled' : 'off'
  }
  return state
}

/** The circuits de-energized at `t` (off or patrolled, not yet restored), in the order given. */
export function offAt(circuits: readonly CircuitHistory[], t: number): string[] {
  return circuits.filter((c) => isOff(stateAt(c, t))).map((c) => c.circuit)
}

export const isOff = (state: CircuitState): boolean => state === 'off' || state === 'patrolled'

/** Every moment something changed (a circuit switched off, patrolled or on), ascending, once each. */
export function changeTimes(circuits: readonly CircuitHistory[]): number[] {
  const times = new Set<number>()
  for (const c of circuits)
    for (const p of c.periods) for (const t of [p.off, p.patrolled, p.on]) if (t !== null) times.add(t)
  return [...times].sort((a, b) => a - b)
}

/**
 * The slider's range: from the event's start (or its first change, if earlier) to its last change, or
 * to `now` while circuits are still off. Never empty: at least one minute wide.
 */
export function replayRange(
  start: number,
  circuits: readonly CircuitHistory[],
  now: number,
): [number, number] {
  const times = changeTimes(circuits)
  const first = Math.min(start, times[0] ?? start)
  const stillOff = circuits.some((c) => c.periods.some((p) => p.on === null))
  const last = stillOff ? Math.max(now, times.at(-1) ?? now) : (times.at(-1) ?? now)
  return [first, Math.max(last, first + 60_000)]
}
