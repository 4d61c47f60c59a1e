import type { MvtSource, PngSource, Source } from '../../generated/types'

/** The source's path below /api/tiles/: `demoPath` in demo mode when it has one, else `path`. */
export function sourcePath(source: Source, demo: boolean): string {
  return demo && source.demoPath !== undefined ? source.demoPath : source.path
}

/** Leaflet URL template of a tile source: `/api/tiles/<path>/mvt/{z}/{x}/{y}` or `/api/tiles/<path>/png/{z}/{x}/{y}`. */
export function tileUrlTemplate(source: MvtSource | PngSource, demo: boolean): string {
  return `/api/tiles/${sourcePath(source, demo)}/${source.type}/{z}/{x}/{y}`
}

/** A concrete tile URL of a source. */
export function tileUrl(source: MvtSource | PngSource, demo: boolean, z: number, x: number, y: number): string {
  return `/api/tiles/${sourcePath(source, demo)}/${source.type}/${z}/${x}/${y}`
}

/** The records API of a dataset: `/api/data/<dataset>/records`. */
export function recordsUrl(datasetId: string): string {
  return `/api/data/${datasetId}/records`
}

/** A table's records URL: `/api/` + its `tabularDataUrl`. */
export function tableRecordsUrl(table: { readonly tabularDataUrl: string }): string {
  return `/api/${table.tabularDataUrl}`
}
