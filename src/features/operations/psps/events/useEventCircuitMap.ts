import type { Feature, FeatureCollection } from 'geojson'
import { useEffect, useMemo, useState } from 'react'
import { resolveColor } from '../../../../shared/config'
import { useMapHighlighter, type Bbox } from '../../../map'
import { authFetch } from '../../../session'
import { useFetched } from '../../shared/useFetched'
import { circuitClass, STATE_COLOURS } from './circuitStates'
import type { CircuitState } from './eventReplay'

async function json<T>(url: string, signal: AbortSignal): Promise<T> {
  const response = await authFetch(url, { signal })
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null
    throw new Error(body?.message ?? `HTTP ${response.status}`)
  }
  return (await response.json()) as T
}

/**
 * The event's circuits as one FeatureCollection (property `circuit`): their store ids from the PSPS
 * roll-up (every circuit of the dataset, by key), then each line's geometry.
 */
async function fetchCircuitLines(
  circuits: readonly string[],
  signal: AbortSignal,
): Promise<FeatureCollection> {
  const rollup = await json<{ rows: { id: number; key: string }[] }>('/api/psps/event', signal)
  const ids = new Map(rollup.rows.map((r) => [r.key, r.id]))
  const features = await Promise.all(
    circuits.flatMap((circuit) => {
      const id = ids.get(circuit)
      if (id === undefined) return []
      return [
        json<Feature>(`/api/psps/event/${id}/geometry`, signal).then((f): Feature => ({
          ...f,
          properties: { circuit },
        })),
      ]
    }),
  )
  return { type: 'FeatureCollection', features }
}

/** The extent of every coordinate in the collection, or null when it has none. */
export function bboxOf(collection: FeatureCollection): Bbox | null {
  const box = [Infinity, Infinity, -Infinity, -Infinity]
  const visit = (c: unknown): void => {
    if (!Array.isArray(c)) return
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      box[0] = Math.min(box[0]!, c[0])
      box[1] = Math.min(box[1]!, c[1])
      box[2] = Math.max(box[2]!, c[0])
      box[3] = Math.max(box[3]!, c[1])
    } else for (const inner of c) visit(inner)
  }
  for (const f of collection.features)
    if (f.geometry && 'coordinates' in f.geometry) visit(f.geometry.coordinates)
  const [minx = 0, miny = 0, maxx = 0, maxy = 0] = box
  return minx <= maxx ? [minx, miny, maxx, maxy] : null
}

/** The lines of the event's circuits (null while loading; a failure leaves the map uncoloured). */
export function useCircuitLines(circuits: readonly string[]): FeatureCollection | null {
  return useCircuitLinesLoad(circuits).lines
}

/** The circuits' lines and whether their loading is over (`settled`: loaded, or failed). */
export function useCircuitLinesLoad(circuits: readonly string[]): {
  lines: FeatureCollection | null
  settled: boolean
} {
  const key = circuits.join('\n')
  const loaded = useFetched(key, (signal) => fetchCircuitLines(circuits, signal))
  return { lines: loaded.status === 'ready' ? loaded.data : null, settled: loaded.status !== 'loading' }
}

export interface CircuitMapOptions {
  /** Fit the map to the circuits once they are drawn. */
  readonly fit?: boolean
  /** Draw on a canvas so the map's picture shows them (the printed report). */
  readonly canvas?: boolean
  /** Only these states are drawn (default: all). */
  readonly only?: readonly CircuitState[]
}

/**
 * Draws the event's circuits over the map, each in the colour of its state; redrawn when a state
 * changes. Answers whether the current lines are on the map (false while loading or not yet drawn).
 */
export function useEventCircuitMap(
  lines: FeatureCollection | null,
  states: ReadonlyMap<string, CircuitState>,
  options: CircuitMapOptions = {},
): boolean {
  const highlighter = useMapHighlighter()
  const { fit = false, canvas = false, only } = options
  const stateKey = [...states].map(([c, s]) => `${c}=${s}`).join(';')
  const onlyKey = only?.join(',') ?? ''
  // The circuits to draw, with their state as a property (the style reads it).
  const drawnLines = useMemo((): FeatureCollection | null => {
    if (!lines) return null
    const shown = onlyKey ? onlyKey.split(',') : null
    return {
      type: 'FeatureCollection',
      features: lines.features.flatMap((f) => {
        const state = states.get(String(f.properties?.circuit)) ?? 'on'
        return shown && !shown.includes(state) ? [] : [{ ...f, properties: { ...f.properties, state } }]
      }),
    }
    // stateKey stands for `states` (a new Map each render with the same content).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lines, stateKey, onlyKey])
  const [onMap, setOnMap] = useState<FeatureCollection | null>(null)
  useEffect(() => {
    if (!highlighter || !drawnLines) return
    const drawn = highlighter.drawGeoJson(drawnLines, {
      canvas,
      path: (p) => {
        const state = (p?.state ?? 'on') as CircuitState
        return {
          color: resolveColor(STATE_COLOURS[state]),
          weight: state === 'on' ? 3 : 6,
          opacity: 0.95,
          className: circuitClass(state),
        }
      },
    })
    // Told once the layer is on the map (after its `layeradd`, which sets a map picture waiting).
    let current = true
    queueMicrotask(() => {
      if (current) setOnMap(drawnLines)
    })
    return () => {
      current = false
      drawn.remove()
    }
  }, [highlighter, drawnLines, canvas])
  // Fit once per set of lines, not on every state change (the slider would keep moving the map).
  useEffect(() => {
    const box = lines ? bboxOf(lines) : null
    if (!fit || !highlighter || !box) return
    highlighter.fitBbox(box, { padding: 32, maxZoom: 12, measure: true })
  }, [fit, highlighter, lines])
  return drawnLines !== null && onMap === drawnLines
}
