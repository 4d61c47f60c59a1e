/** A place where a series passes the threshold between two neighbouring points. */
export interface Crossing {
  /** Index of the earlier of the two points; the chart marks this point. */
  readonly index: number
  readonly direction: 'up' | 'down'
}

/**
 * Every crossing of `threshold` in either direction. A point counts as above when it is at or
 * over the threshold (the shaded band starts at the threshold), so reaching it exactly is a
 * crossing up and falling back below it a crossing down. A series that starts above has no
 * crossing at its start. Pairs with a missing (non-finite) value are skipped.
 */
export function findCrossings(scores: readonly number[], threshold: number): Crossing[] {
  const crossings: Crossing[] = []
  for (let i = 0; i + 1 < scores.length; i += 1) {
    const a = scores[i]
    const b = scores[i + 1]
    if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)) continue
    const wasAbove = a >= threshold
    const isAbove = b >= threshold
    if (wasAbove !== isAbove) crossings.push({ index: i, direction: isAbove ? 'up' : 'down' })
  }
  return crossings
}
