/**
 * The slice of the layer catalogue (config/layers.yaml) the map reads, as loose structural types.
 * They accept both the interim `as const` config and the schema-generated interfaces.
 */
export type PaintType = 'line' | 'fill' | 'circle' | 'icon' | 'raster' | 'particles'
export const PAINT_TYPES: readonly PaintType[] = ['line', 'fill', 'circle', 'icon', 'raster', 'particles']

export type CompareOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte'

export interface FeatureFilter {
  readonly field: string
  readonly op: string
  readonly value: number | string | boolean
}

export interface PaintRuleConfig {
  readonly when: FeatureFilter
  readonly color: string
}

export interface PaintConfig {
  readonly type: string
  readonly color?: string
  readonly width?: number
  readonly hitWidth?: number
  readonly radius?: number
  readonly hitRadius?: number
  readonly opacity?: number
  readonly scale?: string
  readonly rules?: readonly PaintRuleConfig[]
}

export interface PopupFieldConfig {
  readonly key: string
  readonly label: string
  readonly formatter?: string
  readonly unitField?: string
}

export interface PopupConfig {
  readonly title?: string
  readonly fields: readonly PopupFieldConfig[]
}

export interface ClickOverrideConfig {
  readonly whenVisible: string
  readonly show: string
  readonly matchField: string
}

export interface MapLayerConfig {
  readonly id: string
  readonly source: string
  readonly sourceLayer?: string
  readonly paint: PaintConfig
  readonly legend?: string
  readonly popup?: PopupConfig
  readonly clickOverride?: ClickOverrideConfig
}

export interface SourceConfig {
  readonly id: string
  readonly type: string
  readonly path: string
  readonly demoPath?: string
  readonly dataset?: string
  readonly grid?: string
  readonly minzoom?: number
  readonly maxzoom?: number
  readonly tileSize?: number
}

export interface ScaleStepConfig {
  readonly min?: number
  readonly max?: number
  readonly color: string
  readonly label: string
}

export interface ScaleConfig {
  readonly id: string
  readonly kind: string
  readonly field: string
  readonly steps: readonly ScaleStepConfig[]
}

export interface LegendStopConfig {
  readonly value: number
  readonly color: string
  readonly label?: string
}

export interface LegendItemConfig {
  readonly label: string
  readonly color?: string
  readonly width?: number
  readonly icon?: string
}

export interface LegendConfig {
  readonly id: string
  readonly type: string
  readonly title?: string
  readonly unit?: string
  readonly stops?: readonly LegendStopConfig[]
  readonly classes?: readonly LegendStopConfig[]
  readonly items?: readonly LegendItemConfig[]
  readonly scale?: string
}

export interface IconTypeConfig {
  readonly type: string
  readonly icon: string
  readonly color: string
}

export interface IconsConfig {
  readonly field: string
  readonly unknown: { readonly icon: string; readonly color: string }
  readonly types: readonly IconTypeConfig[]
}

export interface SubLayerConfig {
  readonly id: string
  readonly name: string
  readonly mapLayer: string
  readonly inControl?: boolean
  readonly filter?: FeatureFilter
}

export interface LayerPanelConfig {
  readonly texts?: readonly string[]
  readonly lineLegend?: string
  readonly scoreBox?: string
}

export interface LayerDefinition {
  readonly id: string
  readonly name: string
  readonly category: string
  readonly inDefaultList?: boolean
  readonly visible?: boolean
  readonly isOpen?: boolean
  readonly intensity?: number
  readonly showLayerIntensity?: boolean
  readonly showSubLayerIntensity?: boolean
  readonly subLayerIntensity?: number
  readonly infoText?: string
  readonly dataSource?: string
  readonly table?: string
  readonly layers: readonly string[]
  readonly subLayerControl?: string
  readonly subLayers?: readonly SubLayerConfig[]
  readonly selectedSubLayer?: string
  readonly panel?: LayerPanelConfig
}

export interface CategoryConfig {
  readonly id: string
  readonly name: string
  readonly icon: string
  readonly row: number
}

export interface MapCatalog {
  readonly mapLayers: readonly MapLayerConfig[]
  readonly sources: readonly SourceConfig[]
  readonly scales: readonly ScaleConfig[]
  readonly legends: readonly LegendConfig[]
  readonly icons: IconsConfig
  readonly layers: readonly LayerDefinition[]
  readonly categories: readonly CategoryConfig[]
}
