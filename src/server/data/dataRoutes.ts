import type { FastifyInstance } from 'fastify'
import { declareRoutes } from '../auth/routeAuth'
import { filterableFields } from '../store/catalog'
import { badRequest, notFound } from '../http/httpErrors'
import { noQuery, openObject } from '../http/schemas'
import { parseFilters } from './parseFilters'
import { parseSort } from './parseSort'

export interface DataRoutesOptions {
  maxLimit: number
  defaultLimit: number
  /** The risk-score series: URL path under /api, series name and the keys of its two lists. */
  series: { path: string; name: string; timestampKey: string; valueKey: string }[]
}

/** The largest records offset accepted (far beyond any dataset; an offset past the end gives no rows). */
export const MAX_OFFSET = 2 ** 31 - 1

/** The records page (response schema): rows keep every field of the dataset, `id` and `bbox`. */
export const recordsResponse = {
  type: 'object',
  required: ['records', 'total'],
  properties: {
    records: { type: 'array', items: openObject() },
    total: { type: 'integer', description: 'rows matching the filters (all pages)' },
  },
} as const

/** A series (response schema): one record of two parallel lists (timestamps, values). */
const seriesResponse = {
  type: 'object',
  required: ['records'],
  properties: { records: { type: 'array', items: openObject() } },
} as const

const recordsParams = {
  type: 'object',
  required: ['dataset'],
  properties: { dataset: { type: 'string', maxLength: 200, description: 'dataset id' } },
} as const

interface RecordsQuery {
  filters?: string[]
  limit?: number
  offset?: number
  sort?: string
}

/** `GET /api/data/<dataset>/records` and the series endpoints (mounted under /api/data). */
export async function dataRoutes(app: FastifyInstance, opts: DataRoutesOptions): Promise<void> {
  // Machine clients with the data:read scope may read these (issue #32; docs/identity.md).
  declareRoutes(app, { machineScope: 'data:read' })
  const querystring = {
    type: 'object',
    properties: {
      filters: {
        type: 'array',
        items: { type: 'string' },
        description: 'JSON {field, value, type?}; repeatable',
      },
      limit: { type: 'integer', minimum: 1, maximum: opts.maxLimit, default: opts.defaultLimit },
      // Bounded: SQLite takes OFFSET as a 64-bit integer (larger values were a 500).
      offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
      sort: { type: 'string', description: 'field or -field (descending); filterable columns only' },
    },
  } as const

  for (const s of opts.series) {
    const schema = { querystring: noQuery, response: { 200: seriesResponse } }
    app.get(`/${s.path.replace(/^data\//, '')}`, { schema }, async () => {
      const points = await app.store.series(s.name)
      return {
        records: [{ [s.timestampKey]: points.map((p) => p.t), [s.valueKey]: points.map((p) => p.value) }],
      }
    })
  }

  app.get<{ Params: { dataset: string }; Querystring: RecordsQuery }>(
    '/:dataset/records',
    { schema: { params: recordsParams, querystring, response: { 200: recordsResponse } } },
    async (request, reply) => {
      const id = request.params.dataset
      if (!app.store.dataset(id)) return notFound(reply, `unknown dataset '${id}'`)
      const parsed = parseFilters(request.query.filters ?? [], filterableFields(app.store.catalog, id))
      if (!parsed.ok) return badRequest(reply, 'filters', parsed.message)
      const sort = parseSort(request.query.sort, filterableFields(app.store.catalog, id))
      if (!sort.ok) return badRequest(reply, 'sort', sort.message)
      const limit = request.query.limit ?? opts.defaultLimit
      const offset = request.query.offset ?? 0
      return app.store.records(id, parsed.filters, limit, offset, sort.sort)
    },
  )
}
