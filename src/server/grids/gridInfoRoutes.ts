import type { FastifyInstance } from 'fastify'
import { badRequest } from '../http/httpErrors'
import { MAX_TILE_ZOOM } from '../tiles/tileMath'
import type { GridDef } from './gridCatalog'
import { sampleBilinear, sampleNearest } from './gridRaster'
import type { GridContext } from './gridContext'

/** A stored grid's provenance as the legends show it (GET /api/grids). */
export interface GridProvenance {
  readonly id: string
  readonly title: string
  readonly hours: number
  readonly version: string
  /** Where the values came from: a file name or URL (`synthetic` for the demo seed). */
  readonly source: string
  /** The model run (reference) time, null when the source did not say. */
  readonly refTime: string | null
  /** The valid time of each stored hour; empty when the source gave none. */
  readonly validTimes: readonly string[]
}

interface InfoQuery {
  lon: number
  lat: number
  z: number
  hour?: number
}

/** The value of a grid cell as a popup shows it: the class label, or the number with the legend's unit. */
function valueText(grid: GridDef, value: number): string {
  if (grid.legend.type === 'classes') {
    const c = grid.legend.classes.find((k) => k.value === value)
    return c ? c.label : String(value)
  }
  const rounded = Number(value.toPrecision(3))
  return grid.legend.unit ? `${rounded} ${grid.legend.unit}` : String(rounded)
}

/**
 * Grid provenance for the legends and the grid popup (issue #32):
 * - `GET /api/grids` → `{ grids: GridProvenance[] }`: every configured grid that is stored, with
 *   its source, reference time and valid times;
 * - `GET /api/sources/<png source id>/info?lon=&lat=&z=[&hour=]` → the point query the map's raster
 *   popups ask (the shape of src/server/sources' `/info`): the grid's value at the point with its
 *   valid time, model run and source; no feature where the grid has no value.
 */
export function gridInfoRoutes(app: FastifyInstance, ctx: GridContext): void {
  const configured = new Map(ctx.catalog.grids.map((g) => [g.id, g]))
  app.get('/api/grids', async (_request, reply) => {
    const stored = await ctx.store.list()
    const grids: GridProvenance[] = stored.flatMap((g) => {
      const def = configured.get(g.id)
      if (!def) return []
      const { id, hours, version, source, refTime, validTimes } = g
      return [{ id, title: def.title, hours, version, source, refTime, validTimes }]
    })
    return reply.header('Cache-Control', 'private, no-cache').send({ grids })
  })

  const seen = new Set<string>()
  for (const source of ctx.catalog.rasterSources) {
    if (seen.has(source.id)) continue
    seen.add(source.id)
    const grid = source.grid
    const querystring = {
      type: 'object',
      additionalProperties: false,
      required: ['lon', 'lat', 'z'],
      properties: {
        lon: { type: 'number', minimum: -180, maximum: 180, description: 'longitude (WGS 84)' },
        lat: { type: 'number', minimum: -85.0511, maximum: 85.0511, description: 'latitude (WGS 84)' },
        z: { type: 'integer', minimum: 0, maximum: MAX_TILE_ZOOM, description: 'map zoom of the click' },
        hour: { type: 'integer', minimum: 0, maximum: ctx.hours - 1, description: 'forecast hour' },
      },
    } as const
    app.get<{ Querystring: InfoQuery }>(
      `/api/sources/${source.id}/info`,
      { schema: { querystring } },
      async (request, reply) => {
        const { lon, lat, hour: asked } = request.query
        if (asked !== undefined && grid.hours > 1 && asked >= grid.hours)
          return badRequest(reply, 'hour', `hour must be below ${grid.hours} for ${source.id}`)
        const hour = grid.hours > 1 ? (asked ?? Math.min(ctx.currentHour(), grid.hours - 1)) : 0
        reply.header('Cache-Control', 'private, no-cache')
        const stored = await ctx.store.grid(grid.id, hour)
        const summary = stored ? (await ctx.store.list()).find((g) => g.id === grid.id) : undefined
        const value = stored
          ? grid.interpolation === 'nearest'
            ? sampleNearest(stored, lon, lat)
            : sampleBilinear(stored, lon, lat)
          : Number.NaN
        if (!stored || !summary || Number.isNaN(value)) return { source: source.id, features: [] }
        const attributes: Record<string, string | number> = { Value: valueText(grid, value) }
        const valid = summary.validTimes[hour]
        if (valid) attributes['Valid time'] = valid
        else if (grid.hours > 1) attributes['Forecast hour'] = hour
        if (summary.refTime) attributes['Model run'] = summary.refTime
        attributes.Source = summary.source
        return { source: source.id, features: [{ layer: grid.title, attributes }] }
      },
    )
  }
}
