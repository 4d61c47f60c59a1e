/** One piece of a LIKE pattern between `%` wildcards: literal code units and `_` (any one). */
interface Segment {
  /** The segment's code units; `null` stands for `_`. */
  units: (string | null)[]
  /** The longest run of literal units (searched for with indexOf) and where it starts. */
  anchor: string
  anchorAt: number
}

/**
 * Splits a LIKE pattern into the segments between runs of `%` (`\` escapes the next character;
 * a trailing `\` is itself). `open` tells whether the pattern starts / ends with a `%`.
 */
function segmentsOf(pattern: string): { segments: Segment[]; openStart: boolean; openEnd: boolean } {
  const pieces: (string | null)[][] = [[]]
  let openStart = false
  let openEnd = false
  for (let i = 0; i < pattern.length; i++) {
    let c = pattern[i] as string
    const current = pieces[pieces.length - 1] as (string | null)[]
    if (c === '%') {
      if (i === 0) openStart = true
      if (i === pattern.length - 1) openEnd = true
      if (current.length > 0) pieces.push([])
      continue
    }
    if (c === '\\' && i + 1 < pattern.length) c = pattern[++i] as string
    else if (c === '_') {
      current.push(null)
      continue
    }
    current.push(c)
  }
  if (pieces.length > 1 && (pieces[pieces.length - 1] as (string | null)[]).length === 0) pieces.pop()
  return { segments: pieces.map(segment), openStart, openEnd }
}

function segment(units: (string | null)[]): Segment {
  let anchor = ''
  let anchorAt = 0
  let run = ''
  for (let i = 0; i <= units.length; i++) {
    const u = units[i]
    if (typeof u === 'string') {
      run += u
      continue
    }
    if (run.length > anchor.length) {
      anchor = run
      anchorAt = i - run.length
    }
    run = ''
  }
  return { units, anchor, anchorAt }
}

/** Whether `s` matches the segment at position `at` (inside `s`). */
function matchesAt(s: string, seg: Segment, at: number): boolean {
  const units = seg.units
  if (at < 0 || at + units.length > s.length) return false
  for (let k = 0; k < units.length; k++) {
    const u = units[k]
    if (u !== null && s[at + k] !== u) return false
  }
  return true
}

/**
 * The leftmost position ≥ `from` where the segment matches and ends by `limit`, or -1. Candidates
 * come from indexOf of the segment's longest literal run, so each is tried once: O(length × size).
 */
function find(s: string, seg: Segment, from: number, limit: number): number {
  const last = limit - seg.units.length
  if (seg.anchor === '') return from <= last ? from : -1
  let i = s.indexOf(seg.anchor, from + seg.anchorAt)
  while (i >= 0 && i - seg.anchorAt <= last) {
    if (matchesAt(s, seg, i - seg.anchorAt)) return i - seg.anchorAt
    i = s.indexOf(seg.anchor, i + 1)
  }
  return -1
}

/**
 * A SQL/CQL2 LIKE pattern as a test on a string, without backtracking: `%` is any run, `_` any one
 * code unit, `\` escapes the next character; compared exactly (callers lower-case both sides).
 * The segments between `%`s are matched greedily leftmost, which is exact for LIKE: the first
 * must start the string, the last must end it, and each one between is taken at the earliest
 * place after the previous one. Time is O(string length × pattern length) in the worst case
 * (whatever the number of `%`), not exponential as a regular expression of `.*` runs.
 */
export function likeMatcher(pattern: string): (value: string) => boolean {
  const { segments, openStart, openEnd } = segmentsOf(pattern)
  if (!openStart && !openEnd && segments.length === 1) {
    const only = segments[0] as Segment
    return (s) => s.length === only.units.length && matchesAt(s, only, 0)
  }
  const first = openStart ? null : (segments[0] as Segment)
  const final = openEnd ? null : (segments[segments.length - 1] as Segment)
  const middle = segments.slice(first ? 1 : 0, final ? segments.length - 1 : segments.length)
  const need = segments.reduce((n, seg) => n + seg.units.length, 0)
  return (s) => {
    if (s.length < need) return false
    let from = 0
    let limit = s.length
    if (first) {
      if (!matchesAt(s, first, 0)) return false
      from = first.units.length
    }
    if (final) {
      limit = s.length - final.units.length
      if (limit < from || !matchesAt(s, final, limit)) return false
    }
    for (const seg of middle) {
      const at = find(s, seg, from, limit)
      if (at < 0) return false
      from = at + seg.units.length
    }
    return true
  }
}
