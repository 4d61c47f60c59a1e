/** The filters of GET /api/alerts, after validation. */
export interface AlertsQuery {
  rules: Set<string> | null
  severities: Set<string> | null
  acknowledged: boolean | null
}

export type QueryResult = { ok: true; query: AlertsQuery } | { ok: false; parameter: string; message: string }

const KNOWN = new Set(['rule', 'severity', 'acknowledged'])

/** Repeated parameters and comma lists both give a list; empty items are ignored. */
function listOf(raw: unknown): string[] {
  const items = Array.isArray(raw) ? raw : [raw]
  return items
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

function idSet(raw: unknown, allowed: readonly string[], name: string): Set<string> | null | string {
  if (raw === undefined) return null
  const ids = listOf(raw)
  const unknown = ids.filter((id) => !allowed.includes(id))
  if (unknown.length > 0)
    return `unknown ${name} ${unknown.map((u) => `'${u}'`).join(', ')}; one of ${allowed.join(', ')}`
  return ids.length > 0 ? new Set(ids) : null
}

/**
 * Validates the query of GET /api/alerts: `rule` and `severity` (repeatable or comma lists of
 * configured ids), `acknowledged` (true or false). Anything else is a bad parameter.
 */
export function parseAlertsQuery(
  query: Record<string, unknown>,
  ruleIds: readonly string[],
  severityIds: readonly string[],
): QueryResult {
  for (const key of Object.keys(query))
    if (!KNOWN.has(key)) return { ok: false, parameter: key, message: `unknown parameter '${key}'` }
  const rules = idSet(query.rule, ruleIds, 'rule')
  if (typeof rules === 'string') return { ok: false, parameter: 'rule', message: rules }
  const severities = idSet(query.severity, severityIds, 'severity')
  if (typeof severities === 'string') return { ok: false, parameter: 'severity', message: severities }
  let acknowledged: boolean | null = null
  if (query.acknowledged !== undefined) {
    const v = listOf(query.acknowledged)
    if (v.length !== 1 || (v[0] !== 'true' && v[0] !== 'false'))
      return { ok: false, parameter: 'acknowledged', message: `acknowledged must be 'true' or 'false'` }
    acknowledged = v[0] === 'true'
  }
  return { ok: true, query: { rules, severities, acknowledged } }
}
