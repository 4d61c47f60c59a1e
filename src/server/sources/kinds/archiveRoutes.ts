import type { FastifyInstance } from 'fastify'
import type { ArchiveSource, KindContext } from './archive'
import { cogRoutes } from './cog'
import { pmtilesRoutes } from './pmtiles'
import { tilejsonRoutes } from './tilejson'

/** The routes of every tilejson, pmtiles and cog source, by kind (exhaustive over the three). */
export function archiveRoutes(
  app: FastifyInstance,
  ctx: KindContext,
  sources: readonly ArchiveSource[],
): void {
  for (const source of sources) {
    switch (source.type) {
      case 'pmtiles':
        pmtilesRoutes(app, ctx, source)
        break
      case 'cog':
        cogRoutes(app, ctx, source)
        break
      case 'tilejson':
        tilejsonRoutes(app, ctx, source)
        break
      default: {
        const unhandled: never = source
        throw new Error(`No routes for source ${JSON.stringify(unhandled)}`)
      }
    }
  }
}
