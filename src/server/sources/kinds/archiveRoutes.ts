import type { FastifyInstance } from 'fastify'
import { fetchFor, filledUrl, type ArchiveSource, type KindContext } from './archive'
import { cogRoutes } from './cog'
import { pmtilesRoutes } from './pmtiles'
import { tilejsonRoutes } from './tilejson'

/**
 * A cheap upstream request that tells whether the source answers (its outcome lands in the health
 * record): the first bytes of an archive, the TileJSON document. None for files and direct templates.
 */
export function archiveProbe(ctx: KindContext, source: ArchiveSource): (() => Promise<unknown>) | null {
  const url = source.url
  if (url === undefined) return null
  if (source.type === 'tilejson' && /\{z\}/.test(url)) return null
  const range = source.type === 'tilejson' ? undefined : { offset: 0, length: 127 }
  return () => fetchFor(ctx, source, filledUrl(url, ctx.env), range)
}

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
