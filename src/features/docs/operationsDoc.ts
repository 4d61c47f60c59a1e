import { layersConfig, type LayersConfig, operationsConfig, type OperationsConfig } from '../../shared/config'
import { OPERATOR_SYMBOLS } from '../../shared/filters'

/** One alert rule in words, for the Documentation page. */
export interface DocAlertRule {
  readonly id: string
  readonly title: string
  readonly severity: string
  readonly hazard: string
  readonly asset: string
  readonly distance: string
  readonly conditions: readonly string[]
}

export interface OperationsDoc {
  readonly severities: readonly string[]
  readonly rules: readonly DocAlertRule[]
  readonly psps: {
    readonly dataset: string
    readonly columns: readonly string[]
    readonly totals: readonly string[]
  } | null
  readonly planning: { readonly dataset: string; readonly hours: number; readonly grid: string } | null
  readonly mitigation: {
    readonly dataset: string
    readonly risk: string
    readonly factors: readonly { readonly label: string; readonly weight: number }[]
  } | null
}

/** The operations views as configured (config/operations.yaml), in words. */
export function buildOperationsDoc(
  ops: OperationsConfig = operationsConfig,
  layers: LayersConfig = layersConfig,
): OperationsDoc {
  const title = (id: string) => layers.datasets.find((d) => d.id === id)?.title ?? id
  const gridTitle = (id: string) => layers.grids.find((g) => g.id === id)?.title ?? id
  const severity = (id: string) => ops.alerts.severities.find((s) => s.id === id)?.label ?? id
  return {
    severities: ops.alerts.severities.map((s) => s.label),
    rules: ops.alerts.rules.map((r) => ({
      id: r.id,
      title: r.title,
      severity: severity(r.severity),
      hazard: title(r.hazard.dataset),
      asset: title(r.asset.dataset),
      distance: r.distanceMiles === 0 ? 'touching or intersecting' : `within ${r.distanceMiles} mi`,
      conditions: [
        ...(r.hazard.maxAgeHours !== undefined ? [`hazard younger than ${r.hazard.maxAgeHours} h`] : []),
        ...[...(r.hazard.where ?? []), ...(r.asset.where ?? [])].map(
          (c) => `${c.field} ${OPERATOR_SYMBOLS[c.op]} ${String(c.value)}`,
        ),
      ],
    })),
    psps: ops.psps
      ? {
          dataset: title(ops.psps.dataset),
          columns: ops.psps.columns.map((c) => c.label),
          totals: ops.psps.columns.filter((c) => c.total === 'sum').map((c) => c.label),
        }
      : null,
    planning: ops.planning
      ? {
          dataset: title(ops.planning.dataset),
          hours: ops.planning.hours,
          grid: gridTitle(ops.planning.gustGrid),
        }
      : null,
    mitigation: ops.mitigation
      ? {
          dataset: title(ops.mitigation.dataset),
          risk: ops.mitigation.risk.label,
          factors: ops.mitigation.consequence.map((c) => ({ label: c.label, weight: c.weight })),
        }
      : null,
  }
}
