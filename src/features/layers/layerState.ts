import type { LayerDefinition } from '../../shared/config'

/** A click override in force: draw `mapLayerId` for the features whose `field` equals `value`. */
export interface ClickOverrideState {
  readonly mapLayerId: string
  readonly field: string
  readonly value: string | number
}

/** What the user has set in the sidebar, keyed by layer id. */
export interface LayerUiState {
  readonly visible: Readonly<Record<string, boolean>>
  readonly open: Readonly<Record<string, boolean>>
  readonly intensity: Readonly<Record<string, number>>
  readonly subLayerIntensity: Readonly<Record<string, number>>
  readonly selectedSubLayer: Readonly<Record<string, string>>
  readonly checkedSubLayers: Readonly<Record<string, readonly string[]>>
  readonly override: ClickOverrideState | null
  /** Forecast hour of the hourly raster layers (Planning Mode's slider); null = the server's current hour. */
  readonly forecastHour: number | null
}

export type LayerAction =
  | { type: 'setVisible'; layerId: string; visible: boolean }
  | { type: 'toggleOpen'; layerId: string }
  | { type: 'setIntensity'; layerId: string; value: number }
  | { type: 'setSubLayerIntensity'; layerId: string; value: number }
  | { type: 'selectSubLayer'; layerId: string; subLayerId: string }
  | { type: 'toggleCheckedSubLayer'; layerId: string; subLayerId: string }
  | { type: 'showOverride'; override: ClickOverrideState }
  | { type: 'clearOverride' }
  | { type: 'setForecastHour'; hour: number | null }

/** Restorable parts of the state (from a share URL). */
export interface LayerStateSeed {
  readonly visibleLayers?: readonly string[]
  readonly subLayers?: Readonly<Record<string, string>>
}

const clampPercent = (v: number) => Math.min(100, Math.max(0, Math.round(v)))

/** The state the sidebar starts in: config defaults, then whatever a share URL restores. */
export function initialLayerState(
  layers: readonly LayerDefinition[],
  seed: LayerStateSeed = {},
): LayerUiState {
  const ids = new Set(layers.map((l) => l.id))
  const visibleSeed = seed.visibleLayers?.filter((id) => ids.has(id))
  const entries = <T>(f: (l: LayerDefinition) => T | undefined) =>
    Object.fromEntries(layers.flatMap((l) => (f(l) === undefined ? [] : [[l.id, f(l) as T]])))
  return {
    visible: entries((l) => (visibleSeed ? visibleSeed.includes(l.id) : (l.visible ?? false))),
    open: entries((l) => l.isOpen ?? false),
    intensity: entries((l) => l.intensity ?? 100),
    subLayerIntensity: entries((l) => l.subLayerIntensity ?? 100),
    selectedSubLayer: entries((l) => {
      const wanted = seed.subLayers?.[l.id]
      if (wanted && l.subLayers?.some((s) => s.id === wanted)) return wanted
      return l.selectedSubLayer ?? undefined
    }),
    checkedSubLayers: entries((l) =>
      l.subLayerControl === 'checkbox'
        ? (l.subLayers ?? []).filter((s) => s.inControl !== false).map((s) => s.id)
        : undefined,
    ),
    override: null,
    forecastHour: null,
  }
}

export function layerReducer(state: LayerUiState, action: LayerAction): LayerUiState {
  switch (action.type) {
    case 'setVisible':
      return { ...state, visible: { ...state.visible, [action.layerId]: action.visible } }
    case 'toggleOpen':
      return { ...state, open: { ...state.open, [action.layerId]: !state.open[action.layerId] } }
    case 'setIntensity':
      return { ...state, intensity: { ...state.intensity, [action.layerId]: clampPercent(action.value) } }
    case 'setSubLayerIntensity':
      return {
        ...state,
        subLayerIntensity: { ...state.subLayerIntensity, [action.layerId]: clampPercent(action.value) },
      }
    case 'selectSubLayer':
      return {
        ...state,
        selectedSubLayer: { ...state.selectedSubLayer, [action.layerId]: action.subLayerId },
        override: null,
      }
    case 'toggleCheckedSubLayer': {
      const current = state.checkedSubLayers[action.layerId] ?? []
      const next = current.includes(action.subLayerId)
        ? current.filter((id) => id !== action.subLayerId)
        : [...current, action.subLayerId]
      return { ...state, checkedSubLayers: { ...state.checkedSubLayers, [action.layerId]: next } }
    }
    case 'showOverride':
      return { ...state, override: action.override }
    case 'clearOverride':
      return state.override ? { ...state, override: null } : state
    case 'setForecastHour': {
      const hour = action.hour === null ? null : Math.max(0, Math.floor(action.hour))
      return hour === state.forecastHour ? state : { ...state, forecastHour: hour }
    }
    default: {
      const unhandled: never = action
      return unhandled
    }
  }
}
