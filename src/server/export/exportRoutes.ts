import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { badRequest, notFound } from '../http/httpErrors'
import { parseFilters } from '../data/parseFilters'
import { filterableFields, type DatasetDef } from '../store/catalog'
import type { AppStore, OgcFeatureStorage } from '../store/AppStore'
import type { OgcFeatureRow } from '../store/ogcFeatures'
import type { ColumnFilter } from '../store/Store'
import { featureJson } from '../ogc/featureJson'
import { ogcCollections } from '../ogc/ogcCollections'
import { queryItems } from '../ogc/queryItems'
import { writeGeoPackageInWorker } from './geoPackageJob'
import { writeGeoPackage } from './writeGeoPackage'

/** Rows read per page while exporting. */
const PAGE = 10_000

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

/**
 * `GET /api/export/<dataset>?format=geojson|gpkg&filters=…`: every row matching the records API
 * filters (the attribute table's current filters) with geometry, as a GeoJSON FeatureCollection
 * or a GeoPackage file (written with better-sqlite3 following the GeoPackage 1.3 tables).
 */
export async function exportRoutes(app: FastifyInstance): Promise<void> {
  const reader = app.store.ogc
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
      const d = c.dataset
      if (request.query.format === 'geojson') {
        const kind = d.geometry
        async function* body(): AsyncGenerator<string> {
          yield `{"type":"FeatureCollection","name":${JSON.stringify(d.id)},"features":[`
          let first = true
          for await (const rows of pages(app.store, reader, d, parsed.ok ? parsed.filters : [])) {
            const text = JSON.stringify(rows.map((r) => featureJson(r, kind))).slice(1, -1)
            yield first ? text : `,${text}`
            first = false
          }
          yield ']}\n'
        }
        return reply
          .type('application/geo+json')
          .header('Content-Disposition', `attachment; filename="${d.id}.geojson"`)
          .send(Readable.from(body()))
      }
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-export-'))
      const file = path.join(dir, `${d.id}.gpkg`)
      try {
        const location = app.store.location
        if (location) {
          // A file store: a worker thread reads it read-only and writes the file (the server keeps answering).
          const ids =
            parsed.filters.length === 0 ? null : await matchingIds(app.store, reader, d, parsed.filters)
          await writeGeoPackageInWorker({
            storeFile: location,
            out: file,
            ids,
            layer: { name: d.id, title: c.title, description: c.description, dataset: d },
          })
        } else {
          // No file (PostgreSQL, in-memory): this process reads the pages through the store.
          await writeGeoPackage(
            file,
            { name: d.id, title: c.title, description: c.description, kind: d.geometry, fields: d.fields },
            pages(app.store, reader, d, parsed.filters),
          )
        }
      } catch (error) {
        fs.rmSync(dir, { recursive: true, force: true })
        throw error
      }
      const stream = fs.createReadStream(file)
      stream.on('close', () => fs.rmSync(dir, { recursive: true, force: true }))
      return reply
        .type('application/geopackage+sqlite3')
        .header('Content-Disposition', `attachment; filename="${d.id}.gpkg"`)
        .send(stream)
    },
  )
}
