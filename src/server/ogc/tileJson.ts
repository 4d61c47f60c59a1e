import type { Tileset } from './tilesetCatalog'

/**
 * The tile URL template of a tileset (absolute): `…/mvt/{z}/{x}/{y}.pbf` for vector tiles (GDAL's
 * MVT driver opens a single tile only by a URL ending in `.pbf` or `.mvt`), `…/png/{z}/{x}/{y}`
 * for raster tiles.
 */
export function tileTemplate(base: string, t: Tileset): string {
  return t.kind === 'vector'
    ? `${base}/api/tiles/${t.path}/mvt/{z}/{x}/{y}.pbf`
    : `${base}/api/tiles/${t.path}/png/{z}/{x}/{y}`
}

/** Where a tileset's TileJSON is served: `<path>/tilejson.json` (the vector one when a path has both). */
export function tileJsonUrl(base: string, t: Tileset, shared: boolean): string {
  return shared && t.kind === 'raster'
    ? `${base}/api/tiles/${t.path}/png/tilejson.json`
    : `${base}/api/tiles/${t.path}/tilejson.json`
}

const round = (v: number) => Math.round(v * 1e6) / 1e6

/** A TileJSON 3.0.0 document: tiles URL, zooms, bounds, centre and, for vector tiles, the layer and its fields. */
export function tileJson(
  base: string,
  t: Tileset,
  bounds: [number, number, number, number] | null,
): Record<string, unknown> {
  const b = bounds ?? [-180, -85.051129, 180, 85.051129]
  const doc: Record<string, unknown> = {
    tilejson: '3.0.0',
    name: t.title,
    description:
      t.kind === 'vector'
        ? `Vector tiles (MVT) of ${t.title}; requests need Authorization: Bearer <session token>.`
        : `Raster tiles (PNG) of ${t.title}${t.grid && t.grid.hours > 1 ? `; add ?hour=0..${t.grid.hours - 1} for a forecast hour (default: the current hour)` : ''}; requests need Authorization: Bearer <session token>.`,
    version: '1.0.0',
    scheme: 'xyz',
    tiles: [tileTemplate(base, t)],
    minzoom: t.minzoom,
    maxzoom: t.maxzoom,
    bounds: b.map(round),
    center: [round((b[0] + b[2]) / 2), round((b[1] + b[3]) / 2), Math.max(t.minzoom, Math.min(t.maxzoom, 8))],
  }
  if (t.kind === 'vector' && t.dataset) {
    const fields: Record<string, string> = {}
    for (const f of t.dataset.fields) fields[f.name] = f.type === 'number' ? 'Number' : 'String'
    doc.vector_layers = [
      { id: t.dataset.id, description: t.title, minzoom: t.minzoom, maxzoom: t.maxzoom, fields },
    ]
  }
  return doc
}
