import type { AlertRuleSide, DeliverySettings, MitigationSettings, OperationsConfig, PlanningSettings, PspsEventSettings, PspsRollupSettings } from '../../src/generated/types'
import type { CatalogueIndex } from './catalogueIndex'
import type { PathSegment } from './problem'

const O = 'operations'
type FieldType = 'string' | 'number' | 'date'

/** Field types of a dataset, or undefined (and a reported problem) when the dataset is unknown. */
function datasetFields(ix: CatalogueIndex, at: PathSegment[], id: string): Map<string, FieldType> | undefined {
  if (!ix.ctx.ref(O, at, id, ix.datasets, 'dataset', 'not in config/layers.yaml datasets')) return undefined
  const ds = ix.datasets.get(id)
  return ds ? new Map(ds.fields.map((f) => [f.name, f.type as FieldType])) : undefined
}

/** Reports `field` unless the dataset has it (with one of `types`, when given). */
function checkField(
  ix: CatalogueIndex,
  fields: Map<string, FieldType>,
  dataset: string,
  at: PathSegment[],
  field: string,
  types?: FieldType[],
): void {
  const type = fields.get(field)
  if (type === undefined) ix.ctx.report(O, at, `'${field}' is not a field of dataset '${dataset}'`)
  else if (types && !types.includes(type)) ix.ctx.report(O, at, `'${field}' is a ${type} field; expected ${types.join(' or ')}`)
}

function checkSide(ix: CatalogueIndex, side: AlertRuleSide, at: PathSegment[]): void {
  const fields = datasetFields(ix, [...at, 'dataset'], side.dataset)
  if (side.maxAgeHours !== undefined && side.time === undefined) ix.ctx.report(O, [...at, 'maxAgeHours'], `maxAgeHours needs 'time' (the date field the age is measured from)`)
  if (!fields) return
  checkField(ix, fields, side.dataset, [...at, 'label'], side.label)
  for (const m of side.labelTemplate?.matchAll(/\{([^{}]*)\}/g) ?? [])
    checkField(ix, fields, side.dataset, [...at, 'labelTemplate'], m[1] ?? '')
  if (side.time !== undefined) checkField(ix, fields, side.dataset, [...at, 'time'], side.time, ['date'])
  side.where?.forEach((c, k) => {
    const type = fields.get(c.field)
    checkField(ix, fields, side.dataset, [...at, 'where', k, 'field'], c.field)
    if (type === undefined) return
    const numeric = type === 'number'
    if (numeric && (c.op === 'contains' || typeof c.value !== 'number'))
      ix.ctx.report(O, [...at, 'where', k], `'${c.field}' is a number field: use eq, neq, gt, gte, lt or lte with a number`)
    if (!numeric && (!['eq', 'neq', 'contains'].includes(c.op) || typeof c.value !== 'string'))
      ix.ctx.report(O, [...at, 'where', k], `'${c.field}' is a ${type} field: use eq, neq or contains with a string`)
  })
}

/** config/operations.yaml: datasets, fields, grids, severities and colours it refers to. */
export function checkOperations(ix: CatalogueIndex, ops: OperationsConfig): void {
  const severities = ix.ctx.indexById(O, ops.alerts.severities, ['alerts', 'severities'], 'severity')
  ops.alerts.severities.forEach((s, i) => ix.color(O, ['alerts', 'severities', i, 'color'], s.color))
  ix.ctx.indexById(O, ops.alerts.rules, ['alerts', 'rules'], 'rule')
  ops.alerts.rules.forEach((rule, i) => {
    const at = ['alerts', 'rules', i]
    ix.ctx.ref(O, [...at, 'severity'], rule.severity, severities, 'severity', 'not in alerts.severities')
    checkSide(ix, rule.hazard, [...at, 'hazard'])
    checkSide(ix, rule.asset, [...at, 'asset'])
  })

  if (ops.psps) checkPsps(ix, ops.psps)
  if (ops.pspsEvents) checkPspsEvents(ix, ops.pspsEvents, ops.psps)
  if (ops.planning) checkPlanning(ix, ops.planning)
  if (ops.mitigation) checkMitigation(ix, ops.mitigation)
  if (ops.delivery) checkDelivery(ix, ops.delivery, severities)
}

function checkPsps(ix: CatalogueIndex, psps: PspsRollupSettings): void {
  const pspsFields = datasetFields(ix, ['psps', 'dataset'], psps.dataset)
  if (pspsFields) {
    const f = (key: string, types?: FieldType[]) => (field: string) => checkField(ix, pspsFields, psps.dataset, ['psps', key], field, types)
    f('key')(psps.key)
    f('windowStart', ['date'])(psps.windowStart)
    f('windowEnd', ['date'])(psps.windowEnd)
    f('gust', ['number'])(psps.gust)
    f('threshold', ['number'])(psps.threshold)
    psps.columns.forEach((c, j) => {
      checkField(ix, pspsFields, psps.dataset, ['psps', 'columns', j, 'field'], c.field, c.total ? ['number'] : undefined)
    })
  }

}

/** pspsEvents: number fields of the `psps` circuits dataset (and the `psps` section itself). */
function checkPspsEvents(ix: CatalogueIndex, events: PspsEventSettings, psps: PspsRollupSettings | undefined): void {
  if (!psps) {
    ix.ctx.report(O, ['pspsEvents'], "pspsEvents needs the 'psps' section (its circuits dataset and key)")
    return
  }
  const fields = ix.datasets.has(psps.dataset) ? datasetFields(ix, ['psps', 'dataset'], psps.dataset) : undefined
  if (!fields) return
  const num = (at: PathSegment[], field: string) => checkField(ix, fields, psps.dataset, ['pspsEvents', ...at], field, ['number'])
  for (const [cls, field] of Object.entries(events.customers)) if (field !== undefined) num(['customers', cls], field)
  num(['medicalBaseline'], events.medicalBaseline)
  num(['criticalFacilities'], events.criticalFacilities)
  for (const [type, field] of Object.entries(events.criticalFacilityTypes ?? {})) num(['criticalFacilityTypes', type], field)
}

function checkPlanning(ix: CatalogueIndex, plan: PlanningSettings): void {
  const planFields = datasetFields(ix, ['planning', 'dataset'], plan.dataset)
  if (planFields) {
    checkField(ix, planFields, plan.dataset, ['planning', 'key'], plan.key)
    checkField(ix, planFields, plan.dataset, ['planning', 'threshold'], plan.threshold, ['number'])
    checkField(ix, planFields, plan.dataset, ['planning', 'customers'], plan.customers, ['number'])
  }
  if (ix.ctx.ref(O, ['planning', 'gustGrid'], plan.gustGrid, ix.grids, 'grid', 'not in config/layers.yaml grids')) {
    const hourly = ix.grids.get(plan.gustGrid)?.hourly
    if (hourly === undefined) ix.ctx.report(O, ['planning', 'gustGrid'], `grid '${plan.gustGrid}' is not hourly`)
    else if (plan.hours > hourly) ix.ctx.report(O, ['planning', 'hours'], `grid '${plan.gustGrid}' has ${hourly} hours; hours must be at most ${hourly}`)
  }

}

function checkMitigation(ix: CatalogueIndex, mit: MitigationSettings): void {
  const mitFields = datasetFields(ix, ['mitigation', 'dataset'], mit.dataset)
  ix.ctx.indexById(O, mit.consequence, ['mitigation', 'consequence'], 'factor')
  if (mitFields) {
    checkField(ix, mitFields, mit.dataset, ['mitigation', 'key'], mit.key)
    checkField(ix, mitFields, mit.dataset, ['mitigation', 'risk', 'field'], mit.risk.field, ['number'])
    mit.consequence.forEach((c, j) => checkField(ix, mitFields, mit.dataset, ['mitigation', 'consequence', j, 'field'], c.field, ['number']))
  }
  mit.consequence.forEach((c, j) => c.color && ix.color(O, ['mitigation', 'consequence', j, 'color'], c.color))
  if (mit.consequence.every((c) => c.weight === 0)) ix.ctx.report(O, ['mitigation', 'consequence'], 'at least one consequence weight must be above 0')
}

/** Placeholders of alert-delivery templates (src/server/delivery/messageFields.ts has the same lists). */
const ALERT_FIELDS = ['id', 'rule', 'ruleTitle', 'severity', 'severityLabel', 'hazard', 'hazardDataset', 'time', 'assets', 'assetCount', 'nearestMiles', 'link']
const DIGEST_FIELDS = ['count', 'link', 'lines']
const TEMPLATE_FIELDS: Record<keyof DeliverySettings['templates'], string[]> = {
  sms: ALERT_FIELDS,
  emailSubject: ALERT_FIELDS,
  email: ALERT_FIELDS,
  digestLine: ALERT_FIELDS,
  reminderPrefix: ALERT_FIELDS,
  digestSms: DIGEST_FIELDS,
  digestEmailSubject: DIGEST_FIELDS,
  digestEmail: DIGEST_FIELDS,
}

function checkDelivery(ix: CatalogueIndex, delivery: DeliverySettings, severities: ReadonlyMap<string, unknown>): void {
  delivery.bypassQuietHours?.forEach((id, i) => ix.ctx.ref(O, ['delivery', 'bypassQuietHours', i], id, severities, 'severity', 'not in alerts.severities'))
  if (delivery.timeZone !== undefined && !validTimeZone(delivery.timeZone)) ix.ctx.report(O, ['delivery', 'timeZone'], `'${delivery.timeZone}' is not an IANA time zone`)
  for (const [name, fields] of Object.entries(TEMPLATE_FIELDS)) {
    const text = delivery.templates[name as keyof DeliverySettings['templates']]
    for (const m of text.matchAll(/\{([^{}]*)\}/g)) {
      const field = m[1] ?? ''
      if (!fields.includes(field)) ix.ctx.report(O, ['delivery', 'templates', name], `unknown placeholder '{${field}}'; ${name} takes ${fields.map((f) => `{${f}}`).join(', ')}`)
    }
  }
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}
