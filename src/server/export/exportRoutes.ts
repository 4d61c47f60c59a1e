import fs from 'node:fs'
import { declareRoutes } from '../auth/routeAuth'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { appConfig, type ExportLimits } from '../../shared/config'
import { badRequest, notFound } from '../http/httpErrors'
import { parseFilters } from '../data/parseFilters'
import { filterableFields, type DatasetDef } from '../store/catalog'
import type { AppStore, OgcFeatureStorage } from '../store/AppStore'
import type { OgcFeatureRow } from '../store/ogcFeatures'
import type { ColumnFilter } from '../store/Store'
import { featureSourceOf } from '../store/openStoreFile'
import { featureJson } from '../ogc/featureJson'
import { ogcCollections, type OgcCollection } from '../ogc/ogcCollections'
import { queryItems } from '../ogc/queryItems'
import { ExportSlots } from './exportSlots'
import { geoJsonFromWorker } from './geoJsonJob'
import { writeGeoPackageInWorker } from './geoPackageJob'
import { writeGeoPackage } from './writeGeoPackage'

/** Rows read per page while exporting from a store without a file. */
const PAGE = 2_000

/** Pages of the rows matching the records filters, in id order (the records API's own query). */
async function* pages(
  store: AppStore,
  reader: OgcFeatureStorage,
  d: DatasetDef,
  filters: ColumnFilter[],
): AsyncGenerator<OgcFeatureRow[]> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await queryItems(store, reader, d, {
      filter: { filters, textTests: [] },
      limit: PAGE,
      offset,
    })
    if (page.rows.length > 0) yield page.rows
    if (page.rows.length < PAGE) return
  }
}

/** Ids (id order) of the rows matching the records filters: the records column index, else pages of records. */
async function matchingIds(
  store: AppStore,
  reader: OgcFeatureStorage,
  d: DatasetDef,
  filters: ColumnFilter[],
): Promise<number[]> {
  const index = await store.columnIndex(d.id)
  if (index) return index.query(filters, index.ids.length, 0).ids
  const ids: number[] = []
  for await (const rows of pages(store, reader, d, filters)) for (const r of rows) ids.push(r.id)
  return ids
}

interface ExportQuery {
  format: 'geojson' | 'gpkg'
  filters?: string[]
}

export interface ExportRoutesOptions {
  /** Limits (default: config/app.yaml `exports`). */
  limits?: ExportLimits
  /** Where GeoPackage files are written before they are sent (default: the system's temp dir). */
  tempDir?: string
}

/** Seconds a refused export is told to wait (Retry-After): about one large export's time. */
const RETRY_AFTER_SECONDS = 10

/**
 * `GET /api/export/<dataset>?format=geojson|gpkg&filters=…`: every row matching the records API
 * filters (the attribute table's current filters) with geometry, as a GeoJSON FeatureCollection
 * or a GeoPackage file (written with better-sqlite3 following the GeoPackage 1.3 tables).
 * A worker thread reads the store (its SQLite file read-only, or the PostgreSQL database on a
 * connection of its own) and writes the text or file (GeoJSON streamed at the client's pace), so
 * the server keeps answering; exports are limited per member and in total (429 with
 * Retry-After) and in size (413 before any work), from config/app.yaml `exports`.
 */
export async function exportRoutes(app: FastifyInstance, opts: ExportRoutesOptions): Promise<void> {
  // Machine clients with the data:read scope may read these (issue #32; docs/identity.md).
  declareRoutes(app, { machineScope: 'data:read' })
  const reader = app.store.ogc
  const limits = opts.limits ?? appConfig.exports
  const slots = new ExportSlots(limits)
  const collections = new Map(ogcCollections(app.store.catalog).map((c) => [c.id, c]))
  const querystring = {
    type: 'object',
    required: ['format'],
    properties: {
      format: { type: 'string', enum: ['geojson', 'gpkg'], description: 'geojson or gpkg (GeoPackage)' },
      filters: {
        type: 'array',
        items: { type: 'string' },
        description: 'records API filters: JSON {field, value, type?}; repeatable',
      },
    },
  } as const
  app.get<{ Params: { dataset: string }; Querystring: ExportQuery }>(
    '/api/export/:dataset',
    {
      schema: {
        params: { type: 'object', properties: { dataset: { type: 'string', maxLength: 64 } } },
        querystring,
      },
    },
    async (request, reply) => {
      const id = request.params.dataset
      const c = collections.get(id)
      if (!c) return notFound(reply, `unknown dataset '${id.slice(0, 64)}' (or it has no table)`)
      const parsed = parseFilters(request.query.filters ?? [], filterableFields(app.store.catalog, id))
      if (!parsed.ok) return badRequest(reply, 'filters', parsed.message)
      const slot = slots.take(request.session?.memberId ?? request.ip)
      if (typeof slot === 'string') {
        const who =
          slot === 'member'
            ? `you are running ${limits.perMember} exports already (exports.perMember)`
            : `the server is running ${limits.total} exports already (exports.total)`
        return reply
          .code(429)
          .header('Retry-After', String(RETRY_AFTER_SECONDS))
          .send({ error: 'too_many_requests', message: `${who}: try again when one has finished` })
      }
      // The slot is held until the response is over, finished or abandoned by the client.
      const gone = new AbortController()
      reply.raw.once('close', () => {
        slot()
        if (!reply.raw.writableFinished) gone.abort()
      })
      reply.raw.once('finish', slot)
      try {
        return await sendExport(request.query.format, c, parsed.filters, reply, gone.signal)
      } catch (error) {
        slot()
        throw error
      }
    },
  )

  async function sendExport(
    format: ExportQuery['format'],
    c: OgcCollection,
    filters: ColumnFilter[],
    reply: FastifyReply,
    signal: AbortSignal,
  ): Promise<FastifyReply> {
    const d = c.dataset
    // Where a worker thread reads the features: the store's file, or its PostgreSQL database.
    const source = featureSourceOf(app.store)
    // Ids are listed first when filtering (to count them and hand them to the worker).
    const ids = filters.length === 0 ? null : await matchingIds(app.store, reader, d, filters)
    const count = ids ? ids.length : (await app.store.info(d.id)).count
    if (count > limits.maxFeatures)
      return reply.code(413).send({
        error: 'payload_too_large',
        message: `this export would hold ${count} features, more than exports.maxFeatures (${limits.maxFeatures}): narrow it with filters`,
        limit: 'exports.maxFeatures',
        maxFeatures: limits.maxFeatures,
        features: count,
      })
    if (format === 'geojson') {
      // A worker thread reads the store and writes the text (the server only passes it on).
      // An in-memory store (no file, no database): pages read asynchronously through the store.
      const body = source
        ? geoJsonFromWorker({ source, ids, dataset: d })
        : geoJsonPages(app.store, reader, d, filters)
      return reply
        .type('application/geo+json')
        .header('Content-Disposition', `attachment; filename="${d.id}.geojson"`)
        .send(Readable.from(body))
    }
    const dir = fs.mkdtempSync(path.join(opts.tempDir ?? os.tmpdir(), 'emberline-export-'))
    const removeDir = () => fs.rmSync(dir, { recursive: true, force: true })
    const file = path.join(dir, `${d.id}.gpkg`)
    try {
      if (source) {
        // A worker thread reads the store and writes the file (the server keeps answering).
        await writeGeoPackageInWorker(
          {
            source,
            out: file,
            ids,
            layer: { name: d.id, title: c.title, description: c.description, dataset: d },
          },
          signal,
        )
      } else {
        // An in-memory store (tests): this process reads the pages through the store.
        await writeGeoPackage(
          file,
          { name: d.id, title: c.title, description: c.description, kind: d.geometry, fields: d.fields },
          pages(app.store, reader, d, filters),
        )
      }
      if (signal.aborted) throw new Error('GeoPackage export: abandoned')
    } catch (error) {
      removeDir()
      throw error
    }
    const stream = fs.createReadStream(file)
    stream.once('close', removeDir)
    return reply
      .type('application/geopackage+sqlite3')
      .header('Content-Disposition', `attachment; filename="${d.id}.gpkg"`)
      .send(stream)
  }
}

/** The FeatureCollection text from pages of the store (a store without a file). */
async function* geoJsonPages(
  store: AppStore,
  reader: OgcFeatureStorage,
  d: DatasetDef,
  filters: ColumnFilter[],
): AsyncGenerator<string> {
  yield `{"type":"FeatureCollection","name":${JSON.stringify(d.id)},"features":[`
  let first = true
  for await (const rows of pages(store, reader, d, filters)) {
    const text = JSON.stringify(rows.map((r) => featureJson(r, d.geometry))).slice(1, -1)
    yield first ? text : `,${text}`
    first = false
  }
  yield ']}\n'
}
