import { layersConfig, type LayersConfig, tablesConfig, type TablesConfig } from '../../shared/config'

/** How one layer is reached from QGIS, GDAL or ArcGIS Pro. */
export interface GisAccessLayer {
  readonly id: string
  readonly name: string
  /** OGC API – Features collection of the layer's table dataset (null: the layer has no table). */
  readonly collectionUrl: string | null
  readonly dataset: string | null
  /** TileJSON of each vector and raster source the layer draws. */
  readonly tileJson: readonly { readonly kind: 'vector' | 'raster'; readonly url: string }[]
  /** MapLibre style of each vector map layer. */
  readonly styles: readonly string[]
  /** The exact GDAL commands (with the session header), when the layer has a collection. */
  readonly commands: readonly string[]
}

export interface GisAccessDoc {
  readonly landingUrl: string
  readonly tilesetsUrl: string
  readonly stylesUrl: string
  readonly layers: readonly GisAccessLayer[]
}

/** The header GDAL sends (GDAL_HTTP_HEADERS): the session token from the EMBERLINE_TOKEN shell variable. */
export const GDAL_HEADER_OPTION = '--config GDAL_HTTP_HEADERS "Authorization: Bearer $EMBERLINE_TOKEN"'

/** ogrinfo / ogr2ogr commands for one collection of the OGC API at `origin`. */
export function gdalCommands(origin: string, dataset: string): string[] {
  const source = `OAPIF:${origin}/ogc`
  return [
    `ogrinfo -ro -so ${GDAL_HEADER_OPTION} ${source} ${dataset}`,
    `ogr2ogr -f GPKG ${dataset}.gpkg ${GDAL_HEADER_OPTION} -oo PAGE_SIZE=10000 ${source} ${dataset}`,
  ]
}

/**
 * The "Use in QGIS / GDAL" section, generated from config: per layer its OGC collection URL,
 * the TileJSON of its tile sources, its MapLibre styles and the GDAL commands, all on `origin`.
 */
export function buildGisAccessDoc(
  origin: string,
  layers: LayersConfig = layersConfig,
  tables: TablesConfig = tablesConfig,
): GisAccessDoc {
  const sources = layers.sources as readonly { id: string; type: string; path?: string }[]
  const vectorPaths = new Set(sources.filter((s) => s.type === 'mvt').map((s) => s.path))
  const out: GisAccessLayer[] = []
  for (const layer of layers.layers) {
    const table =
      tables.tables.find((t) => t.id === layer.table) ?? tables.tables.find((t) => t.layer === layer.id)
    const mapLayers = layer.layers
      .map((id) => layers.mapLayers.find((m) => m.id === id))
      .filter((m): m is LayersConfig['mapLayers'][number] => m !== undefined)
    const tileJson: { kind: 'vector' | 'raster'; url: string }[] = []
    const styles: string[] = []
    for (const m of mapLayers) {
      const s = sources.find((x) => x.id === m.source)
      if (!s?.path || (s.type !== 'mvt' && s.type !== 'png')) continue
      const kind = s.type === 'mvt' ? 'vector' : 'raster'
      const url =
        kind === 'raster' && vectorPaths.has(s.path)
          ? `${origin}/api/tiles/${s.path}/png/tilejson.json`
          : `${origin}/api/tiles/${s.path}/tilejson.json`
      if (!tileJson.some((x) => x.url === url)) tileJson.push({ kind, url })
      if (kind === 'vector' && m.paint.type !== 'particles') styles.push(`${origin}/ogc/styles/${m.id}`)
    }
    const dataset = table?.dataset ?? null
    if (!dataset && tileJson.length === 0) continue
    out.push({
      id: layer.id,
      name: layer.name,
      dataset,
      collectionUrl: dataset ? `${origin}/ogc/collections/${dataset}` : null,
      tileJson,
      styles,
      commands: dataset ? gdalCommands(origin, dataset) : [],
    })
  }
  return {
    landingUrl: `${origin}/ogc`,
    tilesetsUrl: `${origin}/ogc/tiles`,
    stylesUrl: `${origin}/ogc/styles`,
    layers: out,
  }
}
