import type { PspsEventSettings, PspsRollupSettings } from '../../shared/config'
import type { StoredFeature } from '../store/Store'
import type { CustomerCounts, PspsEventCircuitInput } from '../store/pspsEventStore'

type Props = StoredFeature['properties']

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/**
 * A circuit's customers by class from the configured fields. A class without a field is not in
 * the data and stays null (never a guess); `other` is the customers no class field accounts for
 * (total minus the known classes, at least 0) — with no class fields at all, every customer.
 */
export function customersOf(props: Props, fields: PspsEventSettings['customers']): CustomerCounts {
  const field = (f: string | undefined) => (f === undefined ? null : count(props[f]))
  const total = count(props[fields.total])
  const residential = field(fields.residential)
  const commercial = field(fields.commercial)
  const industrial = field(fields.industrial)
  const known = (residential ?? 0) + (commercial ?? 0) + (industrial ?? 0)
  return {
    residential,
    commercial,
    industrial,
    other: total === null ? null : Math.max(0, total - known),
    total,
  }
}

/**
 * Critical facilities by type: each typed field's count, and the rest of the total count as
 * `unspecified` (all of it when the dataset has no types). Types with no facility are left out.
 */
export function facilitiesOf(props: Props, settings: PspsEventSettings): Record<string, number> {
  const out: Record<string, number> = {}
  let typed = 0
  for (const [type, f] of Object.entries(settings.criticalFacilityTypes ?? {})) {
    const n = count(props[f])
    if (n === null || n <= 0) continue
    out[type] = n
    typed += n
  }
  const rest = (count(props[settings.criticalFacilities]) ?? 0) - typed
  if (rest > 0) out.unspecified = rest
  return out
}

/** One circuit of an event, its counts taken from the circuits dataset now. */
export function circuitSnapshot(
  key: string,
  props: Props,
  settings: PspsEventSettings,
): PspsEventCircuitInput {
  return {
    circuit: key,
    customers: customersOf(props, settings.customers),
    medicalBaseline: count(props[settings.medicalBaseline]),
    criticalFacilities: facilitiesOf(props, settings),
  }
}

/** The circuits dataset by key (first feature of a key wins), in store order. */
export function circuitsByKey(
  rollup: PspsRollupSettings,
  features: readonly StoredFeature[],
): Map<string, Props> {
  const out = new Map<string, Props>()
  for (const f of features) {
    const key = String(f.properties[rollup.key] ?? f.id)
    if (!out.has(key)) out.set(key, f.properties)
  }
  return out
}
