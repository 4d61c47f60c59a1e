import { decodeFilter, type NumericOperator, type RecordsFilter } from '../../../shared/filters'
import { UpstreamFailure } from '../fetchUpstream'
import type { SourceCache } from '../sourceCache'
import { arcgisLayerInfo, arcgisQueryUrl, featuresOf, nextLink } from './featureTiles'
import { baseUrl, isObject, ogcJson, upstreamJson, type FeatureSource } from './featureUpstream'

/** A records request as our records API takes it (already bounded by the route's schema). */
export interface RecordsRequest {
  readonly filters: readonly string[]
  readonly limit: number
  readonly offset: number
  readonly sort: string | undefined
}

export interface RecordsPage {
  readonly records: Record<string, unknown>[]
  readonly total: number
}

/** A mistake in the request (400 naming `parameter`). */
export class RecordsRequestError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message)
  }
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/
const SQL_OPS: Record<NumericOperator, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
}

/** Parses the `filters` and `sort` parameters: shape, field names, numeric operators with numbers. */
function parseRequest(
  req: RecordsRequest,
  fields: ReadonlyMap<string, string> | null,
): { filters: RecordsFilter[]; sort: { field: string; descending: boolean } | undefined } {
  const known = (field: string) => FIELD.test(field) && (fields === null || fields.has(field))
  const filters = req.filters.map((raw) => {
    const decoded = decodeFilter(raw)
    if (!decoded.ok) throw new RecordsRequestError('filters', decoded.message)
    const f = decoded.filter
    if (!known(f.field))
      throw new RecordsRequestError('filters', `'${f.field}' is not a field of this source`)
    if (f.type !== undefined && typeof f.value !== 'number') {
      throw new RecordsRequestError('filters', `operator ${f.type} needs a number (field '${f.field}')`)
    }
    return f
  })
  let sort: { field: string; descending: boolean } | undefined
  if (req.sort !== undefined && req.sort !== '') {
    const descending = req.sort.startsWith('-')
    const field = descending ? req.sort.slice(1) : req.sort
    if (!known(field))
      throw new RecordsRequestError('sort', `cannot sort by '${field}': not a field of this source`)
    sort = { field, descending }
  }
  return { filters, sort }
}

/** A SQL string literal: quotes doubled. */
const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`
/** A LIKE pattern matching `s` anywhere, with `\` escaping the wildcards and itself. */
const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * Our filters as an ArcGIS SQL `where` (the standardized SQL every FeatureServer takes): numeric
 * operators as comparisons with the number, a text filter as a case-insensitive "contains"
 * (`UPPER(field) LIKE '%VALUE%' ESCAPE '\'`), joined by AND with the source's own `where`.
 */
export function arcgisWhere(base: string, filters: readonly RecordsFilter[]): string {
  const clauses = filters.map((f) =>
    f.type === undefined
      ? `UPPER(${f.field}) LIKE ${sqlString(containsPattern(String(f.value)).toUpperCase())} ESCAPE '\\'`
      : `${f.field} ${SQL_OPS[f.type]} ${Number(f.value)}`,
  )
  return clauses.length === 0 ? base : [`(${base})`, ...clauses.map((c) => `(${c})`)].join(' AND ')
}

/**
 * Our filters as a CQL2 text `filter`: numeric operators as comparisons, a text filter as
 * `"field" LIKE '%value%'` (case as the upstream compares: our own server ignores case, the
 * standard's LIKE does not).
 */
export function cql2Filter(filters: readonly RecordsFilter[]): string {
  return filters
    .map((f) =>
      f.type === undefined
        ? `"${f.field}" LIKE ${sqlString(containsPattern(String(f.value)))}`
        : `"${f.field}" ${SQL_OPS[f.type]} ${Number(f.value)}`,
    )
    .join(' AND ')
}

async function arcgisRecords(
  source: FeatureSource & { type: 'arcgis-featureserver' },
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  req: RecordsRequest,
): Promise<RecordsPage> {
  const info = await arcgisLayerInfo(source, env, cache)
  const { filters, sort } = parseRequest(req, info.fields.size > 0 ? info.fields : null)
  const where = arcgisWhere(source.where ?? '1=1', filters)
  const countUrl = arcgisQueryUrl(source, env, where)
  countUrl.searchParams.set('returnCountOnly', 'true')
  countUrl.searchParams.set('f', 'json')
  const counted = (await upstreamJson(source, env, cache, countUrl)).json
  const total = isObject(counted) && typeof counted.count === 'number' ? counted.count : null
  if (total === null) throw new UpstreamFailure(502, 'upstream count answer has no count')
  const order = [
    ...(sort ? [`${sort.field} ${sort.descending ? 'DESC' : 'ASC'}`] : []),
    ...(info.objectIdField && info.objectIdField !== sort?.field ? [`${info.objectIdField} ASC`] : []),
  ].join(',')
  const pageSize = Math.min(source.pageSize ?? 1000, info.maxRecordCount)
  const records: Record<string, unknown>[] = []
  while (records.length < req.limit && req.offset + records.length < total) {
    const url = arcgisQueryUrl(source, env, where)
    const asked = Math.min(pageSize, req.limit - records.length)
    const params = {
      returnGeometry: 'false',
      resultOffset: String(req.offset + records.length),
      resultRecordCount: String(asked),
      f: 'json',
      ...(order ? { orderByFields: order } : {}),
    }
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    const { json } = await upstreamJson(source, env, cache, url)
    const features = isObject(json) && Array.isArray(json.features) ? (json.features as unknown[]) : null
    if (features === null) throw new UpstreamFailure(502, 'upstream query answer has no features')
    // `id` is the object id (the table's row key), as our own records carry theirs.
    const oid = info.objectIdField
    for (const f of features) {
      if (!isObject(f) || !isObject(f.attributes)) continue
      records.push(
        oid !== null && oid in f.attributes
          ? { id: f.attributes[oid], ...f.attributes }
          : { ...f.attributes },
      )
    }
    if (features.length === 0) break
  }
  return { records, total }
}

/** Whether an OGC API server declares the sorting conformance class (then it takes `sortby`). */
async function ogcCanSort(
  source: FeatureSource & { type: 'ogc-features' },
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
): Promise<boolean> {
  const url = baseUrl(source, env)
  url.pathname = url.pathname.replace(/\/collections\/[^/]+$/, '') + '/conformance'
  url.search = ''
  const { json } = await ogcJson(source, env, cache, url)
  const classes = isObject(json) && Array.isArray(json.conformsTo) ? (json.conformsTo as unknown[]) : []
  return classes.some((c) => typeof c === 'string' && /\/conf\/sorting$/.test(c))
}

async function ogcRecords(
  source: FeatureSource & { type: 'ogc-features' },
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  req: RecordsRequest,
): Promise<RecordsPage> {
  const { filters, sort } = parseRequest(req, null)
  if (sort && !(await ogcCanSort(source, env, cache))) {
    throw new RecordsRequestError('sort', `source ${source.id} cannot sort: its server does not offer sortby`)
  }
  let url: URL | null = baseUrl(source, env)
  url.pathname += '/items'
  url.searchParams.set('limit', String(req.limit))
  url.searchParams.set('offset', String(req.offset))
  if (filters.length > 0) {
    url.searchParams.set('filter-lang', 'cql2-text')
    url.searchParams.set('filter', cql2Filter(filters))
  }
  if (sort) url.searchParams.set('sortby', `${sort.descending ? '-' : '+'}${sort.field}`)
  const records: Record<string, unknown>[] = []
  let total: number | null = null
  // A server may answer fewer than `limit` per page: follow `next` until the page is full.
  for (let page = 0; url && records.length < req.limit && page < 20; page++) {
    const { json } = await ogcJson(source, env, cache, url)
    if (total === null && isObject(json) && typeof json.numberMatched === 'number') total = json.numberMatched
    const features = featuresOf(json, 'items answer')
    for (const f of features.slice(0, req.limit - records.length)) {
      records.push({ ...(f.id !== undefined ? { id: f.id } : {}), ...f.properties })
    }
    if (features.length === 0) break
    url = nextLink(json, url)
  }
  return { records, total: total ?? req.offset + records.length }
}

/**
 * One page of another server's records for an attribute table: our records API (`filters`,
 * `limit`, `offset`, `sort` = `field` or `-field`) translated to the upstream's own paging,
 * ordering and filter language (ArcGIS SQL `where`, OGC API CQL2 text).
 */
export async function featureRecords(
  source: FeatureSource,
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  req: RecordsRequest,
): Promise<RecordsPage> {
  if (source.type === 'arcgis-featureserver') return arcgisRecords(source, env, cache, req)
  if (source.type === 'ogc-features') return ogcRecords(source, env, cache, req)
  throw new RecordsRequestError('source', `source ${source.id} (geojson) has no records`)
}
