import type { FastifyInstance } from 'fastify'
import { appConfig, layersConfig } from '../../shared/config'
import type { GridContext } from './gridContext'
import { runIdOf, smokeServiceConfig } from './smokeService'

/** The map layer whose raster source the smoke service describes (spec layer id `smoke`). */
const SMOKE_LAYER = 'smoke'

/**
 * `GET <smoke.serviceBaseUrl>/config` when the base URL is ours (under /api/data/): the smoke
 * weather-service config `{ modelRuns, inventory }`. A real external service can replace it by
 * pointing `smoke.serviceBaseUrl` elsewhere.
 */
export function smokeRoutes(app: FastifyInstance, ctx: GridContext): void {
  const base = appConfig.smoke.serviceBaseUrl.replace(/\/$/, '')
  if (!base.startsWith('/api/data/')) return
  const sourceId = layersConfig.mapLayers.find((m) => m.id === SMOKE_LAYER)?.source
  const source = ctx.catalog.rasterSources.find((s) => s.id === sourceId)
  if (!source) return
  const legend = source.grid.legend
  const unit = 'unit' in legend && typeof legend.unit === 'string' ? legend.unit : ''
  app.get(`${base}/config`, async (_request, reply) => {
    const validTimes = ctx.validTimes().slice(0, source.grid.hours)
    reply.header('Cache-Control', 'private, max-age=300')
    return smokeServiceConfig({
      runId: runIdOf(validTimes[0] ?? ''),
      validTimes,
      defaultHour: Math.min(ctx.currentHour(), source.grid.hours - 1),
      tilePath: source.path,
      legend: legend.id ?? source.grid.id,
      title: source.grid.title,
      unit,
      minzoom: source.minzoom,
      maxzoom: source.maxzoom,
    })
  })
}
