/**
 * The records API filter codec, shared by the browser tables and the server. A filter is
 * sent as one repeated `filters` query parameter holding JSON `{ field, value, type? }`:
 * `type` carries the operator only for numeric columns; text columns match
 * case-insensitively as 'contains'.
 */
export const NUMERIC_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const
export type NumericOperator = (typeof NUMERIC_OPERATORS)[number]

export interface RecordsFilter {
  field: string
  value: string | number
  type?: NumericOperator
}

export type DecodedFilter = { ok: true; filter: RecordsFilter } | { ok: false; message: string }

/** How each operator is written for people (filter chips, the Documentation page). */
export const OPERATOR_SYMBOLS: Readonly<Record<NumericOperator | 'contains', string>> = {
  eq: '=',
  neq: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  contains: 'contains',
}

export function isNumericOperator(v: unknown): v is NumericOperator {
  return typeof v === 'string' && (NUMERIC_OPERATORS as readonly string[]).includes(v)
}

/** The JSON text of one filter (type omitted for text columns). */
export function encodeFilter(filter: RecordsFilter): string {
  const out: RecordsFilter = { field: filter.field, value: filter.value }
  if (filter.type !== undefined) out.type = filter.type
  return JSON.stringify(out)
}

/** Query string of a records request: repeated `filters`, then `limit` and `offset`. */
export function recordsQueryString(
  filters: readonly RecordsFilter[],
  limit?: number,
  offset?: number,
): string {
  const params = new URLSearchParams()
  for (const f of filters) params.append('filters', encodeFilter(f))
  if (limit !== undefined) params.set('limit', String(limit))
  if (offset !== undefined) params.set('offset', String(offset))
  return params.toString()
}

/** Parses one `filters` value; checks its shape only (fields and types are the server's). */
export function decodeFilter(raw: string): DecodedFilter {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { ok: false, message: `not valid JSON: ${raw.slice(0, 80)}` }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: 'a filter must be a JSON object {field, value, type?}' }
  }
  const { field, value, type } = parsed as Record<string, unknown>
  if (typeof field !== 'string' || field === '')
    return { ok: false, message: 'filter.field must be a non-empty string' }
  if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) {
    return { ok: false, message: 'filter.value must be a string or a number' }
  }
  if (type !== undefined && !isNumericOperator(type)) {
    return { ok: false, message: `filter.type must be one of ${NUMERIC_OPERATORS.join(', ')}` }
  }
  return { ok: true, filter: type === undefined ? { field, value } : { field, value, type } }
}
