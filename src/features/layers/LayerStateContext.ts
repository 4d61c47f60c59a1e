import { createContext, useContext, type Dispatch } from 'react'
import type { LayerAction, LayerUiState } from './layerState'

export interface LayerStateValue {
  readonly state: LayerUiState
  readonly dispatch: Dispatch<LayerAction>
}

/** The sidebar's layer state, shared by the sidebar and the map renderer of one map screen. */
export const LayerStateContext = createContext<LayerStateValue | null>(null)

export function useLayerState(): LayerStateValue {
  const value = useContext(LayerStateContext)
  if (!value) throw new Error('useLayerState needs a LayerStateContext provider (MapScreen provides it)')
  return value
}
