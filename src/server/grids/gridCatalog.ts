import { appConfig, layersConfig, resolveColor, themeConfig, type ThemeConfig } from '../../shared/config'
import { colorRamp, type ColorRamp, type LegendLike } from '../../shared/colorRamp'
import type { WindowSettings } from './forecastWindow'
import type { Interpolation } from './renderTile'

/** A grid of layers.yaml `grids`, with its legend compiled to a colour ramp. */
export interface GridDef {
  id: string
  title: string
  legend: LegendLike
  ramp: ColorRamp
  interpolation: Interpolation
  /** Forecast hours (1 for a static grid). */
  hours: number
}

/** A `type: png` source of layers.yaml `sources`. */
export interface RasterSourceDef {
  id: string
  path: string
  demoPath?: string
  grid: GridDef
  minzoom: number
  maxzoom: number
  tileSize: number
}

/** The `type: wind` source (wind tileset and grid endpoints). */
export interface WindSourceDef {
  id: string
  path: string
  dataset?: string
}

export interface GridCatalog {
  grids: GridDef[]
  rasterSources: RasterSourceDef[]
  windSource?: WindSourceDef
}

type Obj = Readonly<Record<string, unknown>>
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {})
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : [])
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback

/** Reads grids and raster/wind sources from the layers config (the compiled one by default). */
export function gridCatalog(layers: unknown = layersConfig, theme: ThemeConfig = themeConfig): GridCatalog {
  const l = obj(layers)
  const resolve = (ref: string): string => resolveColor(ref, theme)
  const legends = new Map(list(l.legends).map((g) => [str(g.id) ?? '', g]))
  const grids = list(l.grids).map((g): GridDef => {
    const id = str(g.id) ?? ''
    const legendId = str(g.legend) ?? ''
    const legend = legends.get(legendId)
    if (!legend) throw new Error(`grid ${id}: unknown legend '${legendId}'`)
    const like = legend as unknown as LegendLike
    return {
      id,
      title: str(g.title) ?? id,
      legend: like,
      ramp: colorRamp(like, resolve),
      interpolation: g.interpolation === 'nearest' ? 'nearest' : 'bilinear',
      hours: Math.max(1, num(g.hourly, 1)),
    }
  })
  const byId = new Map(grids.map((g) => [g.id, g]))
  const sources = list(l.sources)
  const rasterSources = sources
    .filter((s) => s.type === 'png')
    .map((s): RasterSourceDef => {
      const grid = byId.get(str(s.grid) ?? '')
      if (!grid) throw new Error(`source ${String(s.id)}: unknown grid '${String(s.grid)}'`)
      const demoPath = str(s.demoPath)
      return {
        id: str(s.id) ?? '',
        path: str(s.path) ?? '',
        ...(demoPath ? { demoPath } : {}),
        grid,
        minzoom: num(s.minzoom, 0),
        maxzoom: num(s.maxzoom, 22),
        tileSize: num(s.tileSize, 256),
      }
    })
  const wind = sources.find((s) => s.type === 'wind')
  const windDataset = str(wind?.dataset)
  const windSource = wind
    ? { id: str(wind.id) ?? '', path: str(wind.path) ?? '', ...(windDataset ? { dataset: windDataset } : {}) }
    : undefined
  return { grids, rasterSources, ...(windSource ? { windSource } : {}) }
}

/** The largest forecast window of the configured grids (18 for the demo catalogue). */
export function windowHours(catalog: GridCatalog): number {
  return Math.max(1, ...catalog.grids.map((g) => g.hours))
}

/** Window settings from app.yaml (demo reference date, zone, start hour). */
export function windowSettings(demo: boolean): WindowSettings {
  return {
    demo,
    referenceDate: appConfig.demo.referenceDate,
    timeZone: appConfig.demo.timeZone,
    startHourLocal: appConfig.forecastWindow.startHourLocal,
  }
}
