import type { FastifyInstance } from 'fastify'
import { operationsConfig } from '../../generated/config'
import type { PspsRollupSettings } from '../../generated/types'
import { badRequest, notFound } from '../http/httpErrors'
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
  function current(s: PspsRollupSettings): { event: PspsEvent; geoms: Map<number, Uint8Array> } {
    const version = app.store.info(s.dataset).version
    if (cached?.version !== version) {
      const features = app.store.allFeatures(s.dataset)
      cached = {
        version,
        event: buildPspsEvent(s, features),
        geoms: new Map(features.map((f) => [f.id, f.geom])),
      }
    }
    return cached
  }

  app.get<{ Querystring: EventQuery }>('/api/psps/event', async (request, reply) => {
    if (!settings) return notFound(reply, NOT_CONFIGURED)
    const query = request.query
    for (const name of Object.keys(query)) {
      if (name !== 'sort' && name !== 'format') return badRequest(reply, name, `unknown parameter '${name}'`)
    }
    if (query.format !== undefined && query.format !== 'csv' && query.format !== 'json') {
      return badRequest(reply, 'format', "format must be 'json' or 'csv'")
    }
    const event = current(settings).event
    let rows = event.rows
    if (query.sort !== undefined) {
      const spec = typeof query.sort === 'string' ? parseSort(query.sort, event.columns) : null
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
  })

  app.get<{ Params: { id: string } }>('/api/psps/event/:id/geometry', async (request, reply) => {
    if (!settings) return notFound(reply, NOT_CONFIGURED)
    const raw = request.params.id
    const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN
    if (!Number.isSafeInteger(id)) return badRequest(reply, 'id', 'id must be a circuit row id (integer)')
    const { event, geoms } = current(settings)
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
  })
}
