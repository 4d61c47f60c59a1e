import type { FastifyInstance } from 'fastify'
import { badRequest, notFound } from '../http/httpErrors'
import type { GridContext } from './gridContext'
import { WIND_U_GRID, WIND_V_GRID, windRecords } from './windGrid'

/**
 * `GET /api/data/<wind path>/tileset` → `{ tileset_id }` and
 * `GET /api/data/<wind path>/grid/<tileset_id>?hour=N` → `[u, v]` grib2json records (mph).
 * The tileset id changes whenever the wind grids are replaced.
 */
export function windRoutes(app: FastifyInstance, ctx: GridContext): void {
  const source = ctx.catalog.windSource
  if (!source) return
  const tilesetId = async (): Promise<string | undefined> => {
    const version = await ctx.store.version(WIND_U_GRID)
    return version === undefined ? undefined : `${source.path}-${version}`
  }

  app.get(`/api/data/${source.path}/tileset`, async (_request, reply) => {
    const id = await tilesetId()
    if (!id) return notFound(reply, 'no wind grid is stored')
    return { tileset_id: id }
  })

  app.get<{ Params: { tilesetId: string }; Querystring: { hour?: number } }>(
    `/api/data/${source.path}/grid/:tilesetId`,
    {
      schema: {
        params: { type: 'object', properties: { tilesetId: { type: 'string', maxLength: 100 } } },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            hour: { type: 'integer', minimum: 0, maximum: ctx.hours - 1, description: 'forecast hour' },
          },
        },
      },
    },
    async (request, reply) => {
      if (request.params.tilesetId !== (await tilesetId())) {
        return notFound(reply, `unknown wind tileset '${request.params.tilesetId}'`)
      }
      const hour = request.query.hour ?? ctx.currentHour()
      const [u, v] = await Promise.all([ctx.store.grid(WIND_U_GRID, hour), ctx.store.grid(WIND_V_GRID, hour)])
      if (!u || !v) return badRequest(reply, 'hour', `no wind grid for hour ${hour}`)
      const refTime = ctx.validTimes()[0] ?? new Date(0).toISOString()
      reply.header('Cache-Control', 'private, max-age=300')
      return windRecords(u, v, refTime, hour)
    },
  )
}
