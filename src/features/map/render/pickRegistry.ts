import type { PickedFeature } from 'protomaps-leaflet'
import type { MapLayer } from '../../../shared/config'
import type { CompiledPaintStyle } from '../style/compilePaintStyle'

/** A drawn vector layer that can answer "which features are under this point". */
export interface PickableLayer {
  readonly mapLayer: MapLayer
  readonly style: CompiledPaintStyle
  /** Draw order; higher is on top and is asked first. */
  readonly order: number
  query(lng: number, lat: number, brushPx: number): Map<string, PickedFeature[]>
}

/** The vector layers of one map, for popups and click overrides. */
export class PickRegistry {
  private readonly layers = new Map<string, PickableLayer>()
  add(key: string, layer: PickableLayer): void {
    this.layers.set(key, layer)
  }
  remove(key: string): void {
    this.layers.delete(key)
  }
  /** Top-most first. */
  list(): PickableLayer[] {
    return [...this.layers.values()].sort((a, b) => b.order - a.order)
  }
}
