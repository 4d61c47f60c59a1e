import type { FastifyInstance } from 'fastify'
import { gridCatalog, windowHours, windowSettings } from '../grids/gridCatalog'
import { currentWindowHour, windowStart } from '../grids/forecastWindow'

/**
 * GET /api/briefing/sources: what the shift briefing prints as each layer's valid time and data
 * freshness — every dataset's version, feature count, last write and newest data time, every
 * stored grid's version and source, and the hourly forecast window (start, hours, current hour).
 * Session required (the app's default deny).
 */
export async function briefingRoutes(app: FastifyInstance, opts: { demo: boolean }): Promise<void> {
  const grids = app.store.grids
  const window = windowSettings(opts.demo)
  const hours = windowHours(gridCatalog())
  app.get('/api/briefing/sources', async (_request, reply) => {
    const now = new Date()
    reply.header('cache-control', 'no-store')
    return {
      generatedAt: now.toISOString(),
      demo: opts.demo,
      window: {
        start: windowStart(now, window).toISOString(),
        hours,
        currentHour: currentWindowHour(now, window, hours),
      },
      datasets: await Promise.all(app.store.catalog.datasets.map(async (d) => app.store.freshness(d))),
      grids: (await grids.list()).map((g) => ({
        id: g.id,
        version: g.version,
        hours: g.hours,
        source: g.source,
      })),
    }
  })
}
