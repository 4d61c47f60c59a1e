import { useEffect, useRef, useState } from 'react'
import { useMap } from 'react-leaflet'
import { appConfig, legendById, resolveColor, type MapLayer, type WindSource } from '../../../shared/config'
import { windGrid } from '../../session'
import { windField, type WindField, type WindRecordLike } from './windField'
import { WindParticleOverlay } from './WindParticleOverlay'

/** The wind field of a source, from the grid the session fetched at login (spec §4). */
async function loadWind(source: WindSource): Promise<WindField> {
  return windField((await windGrid(`/api/data/${source.path}`)) as WindRecordLike[])
}

/** Colours of the 10 mph buckets from the map layer's legend stops (0, 10, … 90 mph). */
function bucketColors(mapLayer: MapLayer, step: number, max: number): string[] {
  const legend = mapLayer.legend ? legendById(mapLayer.legend) : undefined
  const stops = legend?.type === 'gradient' ? legend.stops : []
  const colors: string[] = []
  for (let v = 0; v <= max; v += step) {
    const stop = [...stops].reverse().find((s) => s.value <= v)
    colors.push(resolveColor(stop?.color ?? '#ffffff'))
  }
  return colors
}

export interface WindParticleLayerProps {
  readonly mapLayer: MapLayer
  readonly source: WindSource
  readonly opacity: number
  readonly pane: string
}

/** Wind vectors: 4000 animated particles (config windParticles) over the wind grid; fetch failures are only logged. */
export function WindParticleLayer({ mapLayer, source, opacity, pane }: WindParticleLayerProps) {
  const map = useMap()
  const [field, setField] = useState<WindField | null>(null)
  const layerRef = useRef<WindParticleOverlay | null>(null)
  const opacityRef = useRef(opacity)
  useEffect(() => {
    let live = true
    loadWind(source)
      .then((f) => live && setField(f))
      .catch((error: unknown) => console.warn('Wind vectors unavailable', error))
    return () => {
      live = false
    }
  }, [source])
  useEffect(() => {
    if (!field) return
    const p = appConfig.windParticles
    const overlay = new WindParticleOverlay(field, {
      count: p.count,
      maxSpeed: p.maxSpeed,
      stepMph: p.colorStepMph,
      maxMph: p.colorMaxMph,
      colors: bucketColors(mapLayer, p.colorStepMph, p.colorMaxMph),
      pane,
    })
    overlay.addTo(map)
    overlay.setOpacity(opacityRef.current)
    layerRef.current = overlay
    return () => {
      overlay.remove()
      layerRef.current = null
    }
  }, [map, field, mapLayer, pane])
  useEffect(() => {
    opacityRef.current = opacity
    layerRef.current?.setOpacity(opacity)
  }, [opacity])
  return null
}
