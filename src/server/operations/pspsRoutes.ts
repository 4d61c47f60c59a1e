import type { FastifyInstance } from 'fastify'
import { operationsConfig, type PspsRollupSettings } from '../../shared/config'
import { badRequest, notFound } from '../http/httpErrors'
import { numericIdParams } from '../http/schemas'
import { decodeParts, partsToGeometry } from '../store/geometryCodec'
import { buildPspsEvent, parseSort, pspsCsv, sortRows, type PspsEvent } from './pspsEvent'

export interface PspsRoutesOptions {
  /** Defaults to operationsConfig.psps; null = not configured (404). */
  settings?: PspsRollupSettings | null
}

interface EventQuery {
  sort?: string
  format?: string
}

const NOT_CONFIGURED = 'PSPS event roll-up is not configured'

/** `sort` (a column field, `-` for descending; checked against config) and `format`; nothing else. */
const eventQuery = {
  type: 'object',
  propertyNames: { enum: ['sort', 'format'] },
  properties: {
    sort: { type: 'string', maxLength: 200, description: 'field or -field' },
    format: { type: 'string', enum: ['json', 'csv'] },
  },
} as const

/**
 * GET /api/psps/event[?sort=field|-field][&format=csv]: the next PSPS event (window, one row per
 * circuit with the configured columns, totals of the `total: sum` columns, column definitions).
 * GET /api/psps/event/:id/geometry: one circuit as a GeoJSON Feature (for highlighting).
 * Session required; 404 when operations.yaml has no `psps` section.
 */
export async function pspsRoutes(app: FastifyInstance, opts: PspsRoutesOptions): Promise<void> {
  const settings = opts.settings === undefined ? (operationsConfig.psps ?? null) : opts.settings
  let cached: { version: number; event: PspsEvent; geoms: Map<number, Uint8Array> } | null = null

  /** The event of the dataset's current version (recomputed when the dataset is replaced). */
  async function current(
    s: PspsRollupSettings,
  ): Promise<{ event: PspsEvent; geoms: Map<number, Uint8Array> }> {
    const { version } = await app.store.info(s.dataset)
    if (cached?.version === version) return cached
    const features = await app.store.allFeatures(s.dataset)
    const built = {
      version,
      event: buildPspsEvent(s, features),
      geoms: new Map(features.map((f) => [f.id, f.geom])),
    }
    cached = built
    return built
  }

  app.get<{ Querystring: EventQuery }>(
    '/api/psps/event',
    { schema: { querystring: eventQuery } },
    async (request, reply) => {
      if (!settings) return notFound(reply, NOT_CONFIGURED)
      const query = request.query
      const { event } = await current(settings)
      let rows = event.rows
      if (query.sort !== undefined) {
        const spec = parseSort(query.sort, event.columns)
        if (!spec) {
          const fields = event.columns.map((c) => c.field).join(', ')
          return badRequest(reply, 'sort', `sort must be one of ${fields}, optionally prefixed with '-'`)
        }
        rows = sortRows(rows, spec)
      }
      reply.header('cache-control', 'no-store')
      if (query.format === 'csv') {
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="psps-event.csv"')
          .send(pspsCsv({ ...event, rows }))
      }
      return { ...event, rows }
    },
  )

  const geometrySchema = { params: numericIdParams }
  app.get<{ Params: { id: string } }>(
    '/api/psps/event/:id/geometry',
    { schema: geometrySchema },
    async (request, reply) => {
      if (!settings) return notFound(reply, NOT_CONFIGURED)
      const raw = request.params.id
      const id = Number(raw)
      const { event, geoms } = await current(settings)
      const row = event.rows.find((r) => r.id === id)
      const geom = geoms.get(id)
      const dataset = app.store.dataset(settings.dataset)
      if (!row || !geom || !dataset) return notFound(reply, `no circuit with id ${raw} in the PSPS event`)
      return {
        type: 'Feature',
        id: row.id,
        properties: { key: row.key },
        geometry: partsToGeometry(decodeParts(geom), dataset.geometry),
      }
    },
  )
}
