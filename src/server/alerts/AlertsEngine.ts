import type { Feature, FeatureCollection } from 'geojson'
import type { AlertRule, AlertsSettings } from '../../shared/config'
import { partsToGeometry } from '../store/geometryCodec'
import type { Store } from '../store/Store'
import type { Alert, PreparedDataset } from './alertTypes'
import { evaluateRule } from './evaluateRule'
import { prepareDataset } from './prepareDataset'

export interface AlertsEvaluation {
  /** Sorted by severity (config order), then time (newest first), then id. */
  alerts: Alert[]
  /** Alerts per rule id (every configured rule, 0 when it raised none). */
  counts: Map<string, number>
  evaluatedAt: string
}

interface RuleResult {
  key: string
  alerts: Alert[]
}

const MINUTE_MS = 60_000

/**
 * Called after every evaluation (alert delivery hooks on here); must not throw or reject. The
 * evaluation resolves once every listener has — a promise a listener answers is awaited (alert
 * delivery: until it recorded the evaluation).
 */
export type EvaluationListener = (evaluation: AlertsEvaluation) => unknown

/**
 * Evaluates the configured rules against the store. Decoded datasets are kept per dataset
 * version and each rule's alerts per (hazard version, asset version) — plus the minute of "now"
 * for rules with an age limit — so requests between data changes cost a few map look-ups.
 */
export class AlertsEngine {
  private readonly datasets = new Map<string, PreparedDataset>()
  private readonly results = new Map<string, RuleResult>()
  private readonly severityRank: Map<string, number>
  private readonly listeners = new Set<EvaluationListener>()

  constructor(
    private readonly store: Store,
    readonly settings: AlertsSettings,
    readonly now: () => number,
  ) {
    this.severityRank = new Map(settings.severities.map((s, i) => [s.id, i]))
  }

  async evaluate(): Promise<AlertsEvaluation> {
    const now = this.now()
    const alerts: Alert[] = []
    const counts = new Map<string, number>()
    for (const rule of this.settings.rules) {
      const list = await this.ruleAlerts(rule, now)
      counts.set(rule.id, list.length)
      alerts.push(...list)
    }
    const rank = (a: Alert) => this.severityRank.get(a.severity) ?? Number.MAX_SAFE_INTEGER
    alerts.sort((a, b) => rank(a) - rank(b) || b.time.localeCompare(a.time) || a.id.localeCompare(b.id))
    const evaluation = { alerts, counts, evaluatedAt: new Date(now).toISOString() }
    for (const listener of this.listeners) await listener(evaluation)
    return evaluation
  }

  /**
   * Calls `listener` after every evaluation — a request, the delivery schedule, a feed update or an
   * import noticed by the dataset watcher alike. Answers the function that removes it.
   */
  onEvaluated(listener: EvaluationListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Ids of the datasets the rules read (hazards and assets), for version watchers. */
  datasetIds(): string[] {
    return [...new Set(this.settings.rules.flatMap((r) => [r.hazard.dataset, r.asset.dataset]))]
  }

  /** The alert's hazard and assets as GeoJSON (properties: role, dataset, id, label, distanceMiles). */
  geometry(alert: Alert): FeatureCollection {
    const features: Feature[] = []
    const hazards = this.datasets.get(alert.hazard.dataset)
    const hazard = hazards?.byId.get(alert.hazard.id)
    if (hazards && hazard)
      features.push({
        type: 'Feature',
        geometry: partsToGeometry(hazard.shape.parts, hazards.kind),
        properties: { role: 'hazard', dataset: hazards.id, id: hazard.id, label: alert.hazard.label },
      })
    for (const a of alert.assets) {
      const assets = this.datasets.get(a.dataset)
      const asset = assets?.byId.get(a.id)
      if (!assets || !asset) continue
      features.push({
        type: 'Feature',
        geometry: partsToGeometry(asset.shape.parts, assets.kind),
        properties: {
          role: 'asset',
          dataset: a.dataset,
          id: a.id,
          label: a.label,
          distanceMiles: a.distanceMiles,
        },
      })
    }
    return { type: 'FeatureCollection', bbox: alert.bbox, features }
  }

  private async ruleAlerts(rule: AlertRule, now: number): Promise<Alert[]> {
    const hazards = await this.dataset(rule.hazard.dataset)
    const assets = await this.dataset(rule.asset.dataset)
    if (!hazards || !assets) return []
    const aged = rule.hazard.maxAgeHours !== undefined || rule.asset.maxAgeHours !== undefined
    const key = `${hazards.version}:${assets.version}${aged ? `:${Math.floor(now / MINUTE_MS)}` : ''}`
    const cached = this.results.get(rule.id)
    if (cached?.key === key) return cached.alerts
    const alerts = evaluateRule(rule, hazards, assets, now)
    this.results.set(rule.id, { key, alerts })
    return alerts
  }

  private async dataset(id: string): Promise<PreparedDataset | undefined> {
    const def = this.store.dataset(id)
    if (!def) return undefined
    const { version } = await this.store.info(id)
    const cached = this.datasets.get(id)
    if (cached?.version === version) return cached
    const prepared = prepareDataset(def, version, await this.store.allFeatures(id))
    this.datasets.set(id, prepared)
    return prepared
  }
}
