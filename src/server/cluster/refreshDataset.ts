import type { FastifyInstance } from 'fastify'
import { tileIndexesOf } from '../tiles/tileIndexes'

/**
 * A dataset replaced through another server or a CLI (the store's cached answers already
 * dropped by the DatasetSync, its new version read): what this server does after its own feed
 * import — start rebuilding the dataset's in-memory tile data for the new version (tiles are cut
 * from the store meanwhile); for a large dataset in PostgreSQL mode the leader renders the new
 * version's shared archive instead (the previous one serves until it is complete). Cached tiles are keyed by dataset version (TileCache, TileArchives),
 * so those of the old version are never served again and age out of the LRU.
 */
export async function refreshDataset(app: FastifyInstance, id: string, version: number): Promise<void> {
  const started = performance.now()
  await tileIndexesOf(app.store).changed(id)
  app.log.info(
    { dataset: id, version, ms: Math.round(performance.now() - started) },
    'dataset replaced: serving the new version, tile data rebuilding',
  )
}
