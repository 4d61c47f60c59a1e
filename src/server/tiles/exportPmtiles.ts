import type { VectorSourceDef } from '../store/catalog'
import type { Store } from '../store/Store'
import { tileArchiveStorageOf } from '../store/tileArchiveStorage'
import type { TileLimits } from './buildTile'
import { writePmtilesFile, type PmtilesSummary, type PmtilesTile } from './pmtilesWriter'
import { archiveContentKey, archiveStamp, renderArchive } from './renderArchive'
import { readTileArchive, tileArchivePath, type ArchiveStamp } from './tileArchiveFile'
import { buildTileData, spatialIndex } from './tileData'
import { archiveZooms } from './tilePolicy'

export interface PmtilesExport extends PmtilesSummary {
  source: string
  /** The dataset version the tiles were rendered from. */
  version: number
  /** Where the tiles came from: the archive file, the shared archive, or rendered for the export. */
  from: 'archive file' | 'shared archive' | 'rendered'
  minZoom: number
  maxZoom: number
}

/** A usage mistake of the export (unknown dataset, nothing to export): the CLI prints it, exit 2. */
export class ExportError extends Error {}

/**
 * The source to export for `id`: a vector source's id, or a dataset with exactly one source
 * that has an archive (several: the caller must name one).
 */
export function exportSource(store: Pick<Store, 'catalog'>, id: string): VectorSourceDef {
  const { sources, datasets } = store.catalog
  const bySource = sources.find((s) => s.id === id)
  if (bySource) return bySource
  if (!datasets.some((d) => d.id === id))
    throw new ExportError(
      `unknown dataset or source '${id}' (datasets: ${datasets.map((d) => d.id).join(', ')})`,
    )
  const own = sources.filter((s) => s.dataset === id)
  if (own.length === 0) throw new ExportError(`dataset '${id}' has no vector tile source`)
  if (own.length > 1)
    throw new ExportError(
      `dataset '${id}' has several tile sources: name one (${own.map((s) => s.id).join(', ')})`,
    )
  return own[0] as VectorSourceDef
}

const FIELD_TYPES: Record<string, string> = { number: 'Number', boolean: 'Boolean' }

/**
 * Writes a source's tile archive (its minzoom to z14, the tiles the server serves from it) as a
 * PMTiles v3 file: gzip MVT, deduplicated, clustered. The tiles come from the store's archive
 * for the data stored now — the archive file next to a SQLite store, or the newest complete
 * shared archive of a PostgreSQL store — or, when there is none, are rendered here from the data.
 */
export async function exportPmtiles(
  store: Store,
  sourceOrDataset: string,
  file: string,
  limits: TileLimits,
): Promise<PmtilesExport> {
  const source = exportSource(store, sourceOrDataset)
  const dataset = store.dataset(source.dataset)
  if (!dataset) throw new ExportError(`dataset '${source.dataset}' is not in the catalog`)
  const info = await store.info(source.dataset)
  const zooms = archiveZooms(source, info.count)
  if (zooms === null)
    throw new ExportError(`'${source.id}' has nothing to export (no features, or no zoom ≤ 14)`)
  let tiles: PmtilesTile[] | null = null
  let from: PmtilesExport['from'] = 'rendered'
  let version = info.version
  const shared = store.location === null ? tileArchiveStorageOf(store) : null
  if (shared) {
    const set = await shared.current(source.id)
    const stamp = set ? (JSON.parse(set.stamp) as ArchiveStamp) : null
    if (set && stamp && stamp.content === archiveContentKey(store, source, limits, stamp.count)) {
      tiles = []
      for await (const t of shared.tiles(set.source, set.version))
        tiles.push({ z: t.z, x: t.x, y: t.y, data: t.gz })
      from = 'shared archive'
      version = set.version
    }
  } else if (store.location) {
    const read = await readTileArchive(
      tileArchivePath(store.location, source.id),
      await archiveStamp(store, source, limits),
    )
    if (read) {
      tiles = read.tiles.map((t) => ({ z: t.z, x: t.x, y: t.y, data: t.gz }))
      from = 'archive file'
    }
  }
  if (!tiles) {
    const data = buildTileData(dataset, await store.tileRows(source.dataset))
    const rendered = await renderArchive(store, source, { data, index: spatialIndex(data) }, limits)
    tiles = rendered.map((t) => ({ z: t.z, x: t.x, y: t.y, data: t.gz }))
  }
  const fields = Object.fromEntries(dataset.fields.map((f) => [f.name, FIELD_TYPES[f.type] ?? 'String']))
  const summary = writePmtilesFile(file, tiles, {
    tileType: 1,
    tileCompression: 2,
    bounds: info.bbox ?? undefined,
    metadata: {
      name: source.id,
      format: 'pbf',
      type: 'overlay',
      description: `Emberline ${source.id} (dataset ${source.dataset}, version ${version}, ${info.count} features)`,
      vector_layers: [{ id: source.dataset, fields, minzoom: zooms.minZoom, maxzoom: zooms.maxZoom }],
    },
  })
  return { ...summary, source: source.id, version, from, minZoom: zooms.minZoom, maxZoom: zooms.maxZoom }
}
