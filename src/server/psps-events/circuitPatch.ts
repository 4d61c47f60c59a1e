import type { DeenergizationPeriod } from '../store/pspsEventStore'

/** The body of PATCH /api/psps/events/<id>/circuits/<circuit> (times as ms, already parsed). */
export interface CircuitPatch {
  /** Which period to correct (1, 2, …); default: the latest, or a new one (see applyCircuitPatch). */
  period?: number
  deenergizedAt?: number
  patrolledAt?: number | null
  restoredAt?: number | null
  damageFound?: boolean | null
  notes?: string | null
}

export type PatchOutcome =
  | { ok: true; period: DeenergizationPeriod; created: boolean; replaces: DeenergizationPeriod | null }
  | { ok: false; parameter: string; message: string }

const iso = (ms: number) => new Date(ms).toISOString()
const fail = (parameter: string, message: string): PatchOutcome => ({ ok: false, parameter, message })

/** How far a recorded time may lie ahead of the server's clock (clients' clocks drift). */
export const CLOCK_SKEW_MS = 60_000

/**
 * Applies a patch to a circuit's periods. A `deenergizedAt` when the circuit has no period, or
 * when its latest period is restored, starts a new period (a circuit switched off again);
 * otherwise the patch corrects the latest period (or the one `period` names). The rules, each a
 * 400 naming its field: no time in the future; patrol and restoration not before the
 * de-energization; a new de-energization not before the previous restoration; patrol, restoration,
 * damage and notes need a de-energization to belong to.
 */
export function applyCircuitPatch(
  periods: readonly DeenergizationPeriod[],
  patch: CircuitPatch,
  by: string,
  now: number,
): PatchOutcome {
  for (const f of ['deenergizedAt', 'patrolledAt', 'restoredAt'] as const) {
    const t = patch[f]
    if (typeof t === 'number' && t > now + CLOCK_SKEW_MS)
      return fail(f, `${f} ${iso(t)} is in the future (now ${iso(now)})`)
  }
  const latest = periods.at(-1)
  let base: DeenergizationPeriod | undefined
  let created = false
  if (patch.period !== undefined) {
    base = periods.find((p) => p.period === patch.period)
    if (!base) return fail('period', `the circuit has no de-energization period ${patch.period}`)
  } else if (patch.deenergizedAt !== undefined && (!latest || latest.restoredAt !== null)) {
    created = true
  } else {
    base = latest
  }
  if (!created && !base) {
    const field = (['patrolledAt', 'restoredAt', 'damageFound', 'notes'] as const).find(
      (f) => patch[f] !== undefined,
    )
    return fail(field ?? 'body', `the circuit has not been de-energized: record deenergizedAt first`)
  }
  const deenergizedAt = patch.deenergizedAt ?? base?.deenergizedAt
  if (deenergizedAt === undefined) return fail('deenergizedAt', 'deenergizedAt is required')
  const next: DeenergizationPeriod = {
    period: created ? (latest?.period ?? 0) + 1 : (base?.period ?? 1),
    deenergizedAt,
    patrolledAt: patch.patrolledAt !== undefined ? patch.patrolledAt : (base?.patrolledAt ?? null),
    restoredAt: patch.restoredAt !== undefined ? patch.restoredAt : (base?.restoredAt ?? null),
    damageFound: patch.damageFound !== undefined ? patch.damageFound : (base?.damageFound ?? null),
    notes: patch.notes !== undefined ? patch.notes : (base?.notes ?? null),
    recordedBy: by,
    recordedAt: now,
  }
  return checkOrder(periods, next, patch) ?? { ok: true, period: next, created, replaces: base ?? null }
}

/** The order rules of one period among its neighbours; null when it holds. */
function checkOrder(
  periods: readonly DeenergizationPeriod[],
  p: DeenergizationPeriod,
  patch: CircuitPatch,
): PatchOutcome | null {
  const blame = (a: keyof CircuitPatch, b: keyof CircuitPatch) => (patch[a] !== undefined ? a : b)
  if (p.restoredAt !== null && p.restoredAt < p.deenergizedAt)
    return fail(
      blame('restoredAt', 'deenergizedAt'),
      `restoredAt ${iso(p.restoredAt)} is before the de-energization at ${iso(p.deenergizedAt)}`,
    )
  if (p.patrolledAt !== null && p.patrolledAt < p.deenergizedAt)
    return fail(
      blame('patrolledAt', 'deenergizedAt'),
      `patrolledAt ${iso(p.patrolledAt)} is before the de-energization at ${iso(p.deenergizedAt)}`,
    )
  const before = periods.filter((q) => q.period < p.period).at(-1)
  if (before && before.restoredAt !== null && p.deenergizedAt < before.restoredAt)
    return fail(
      'deenergizedAt',
      `deenergizedAt ${iso(p.deenergizedAt)} is before the previous restoration at ${iso(before.restoredAt)}`,
    )
  const after = periods.find((q) => q.period > p.period)
  if (after && (p.restoredAt === null || p.restoredAt > after.deenergizedAt))
    return fail(
      blame('restoredAt', 'deenergizedAt'),
      `period ${p.period} must be restored before the next de-energization at ${iso(after.deenergizedAt)}`,
    )
  return null
}
