import {
  appConfig,
  layersConfig,
  resolveColor,
  themeConfig,
  type ClassesLegend,
  type GradientLegend,
  type Grid,
  type LayersConfig,
  type Legend,
  type PngSource,
  type ThemeConfig,
  type WindSource,
} from '../../shared/config'
import { colorRamp, type ColorRamp } from '../../shared/colorRamp'
import type { WindowSettings } from './forecastWindow'
import type { Interpolation } from './renderTile'

/** A grid of layers.yaml `grids`, with its legend compiled to a colour ramp. */
export interface GridDef {
  readonly id: string
  readonly title: string
  readonly legend: GradientLegend | ClassesLegend
  readonly ramp: ColorRamp
  readonly interpolation: Interpolation
  /** Forecast hours (1 for a static grid). */
  readonly hours: number
}

/** A `type: png` source of layers.yaml `sources`, with its grid. */
export type RasterSourceDef = Pick<
  PngSource,
  'id' | 'path' | 'demoPath' | 'minzoom' | 'maxzoom' | 'tileSize'
> & {
  readonly grid: GridDef
}

/** The `type: wind` source (wind tileset and grid endpoints). */
export type WindSourceDef = Pick<WindSource, 'id' | 'path' | 'dataset'>

export interface GridCatalog {
  readonly grids: readonly GridDef[]
  readonly rasterSources: readonly RasterSourceDef[]
  readonly windSource?: WindSourceDef
}

/** A grid's legend as a colour ramp's input; the config compiler only lets gradient and classes legends colour grids. */
function rampLegend(grid: Grid, legend: Legend | undefined): GradientLegend | ClassesLegend {
  if (legend?.type === 'gradient' || legend?.type === 'classes') return legend
  throw new Error(`grid ${grid.id}: legend '${grid.legend}' is not a gradient or classes legend`)
}

/** Reads grids and raster/wind sources from the layers config (the compiled one by default). */
export function gridCatalog(
  layers: LayersConfig = layersConfig,
  theme: ThemeConfig = themeConfig,
): GridCatalog {
  const resolve = (ref: string): string => resolveColor(ref, theme)
  const legends = new Map(layers.legends.map((g) => [g.id, g]))
  const grids = layers.grids.map((g): GridDef => {
    const legend = rampLegend(g, legends.get(g.legend))
    return {
      id: g.id,
      title: g.title,
      legend,
      ramp: colorRamp(legend, resolve),
      interpolation: g.interpolation,
      hours: Math.max(1, g.hourly ?? 1),
    }
  })
  const byId = new Map(grids.map((g) => [g.id, g]))
  const rasterSources = layers.sources
    .filter((s): s is PngSource => s.type === 'png')
    .map((s): RasterSourceDef => {
      const grid = byId.get(s.grid)
      if (!grid) throw new Error(`source ${s.id}: unknown grid '${s.grid}'`)
      const { id, path, demoPath, minzoom, maxzoom, tileSize } = s
      return { id, path, ...(demoPath ? { demoPath } : {}), grid, minzoom, maxzoom, tileSize }
    })
  const wind = layers.sources.find((s): s is WindSource => s.type === 'wind')
  const windSource = wind ? { id: wind.id, path: wind.path, dataset: wind.dataset } : undefined
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
