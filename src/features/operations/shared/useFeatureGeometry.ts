import type { Feature } from 'geojson'
import { useEffect } from 'react'
import { authFetch } from '../../session'
import { useFetched } from './useFetched'

async function fetchFeature(url: string, signal: AbortSignal): Promise<Feature> {
  const response = await authFetch(url, { signal })
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null
    throw new Error(body?.message ?? `HTTP ${response.status}`)
  }
  return (await response.json()) as Feature
}

/** A GeoJSON Feature from `url` (null while none is asked for or it loads); a failure is toasted. */
export function useFeatureGeometry(url: string | null): Feature | null {
  const geometry = useFetched(url, (signal) => fetchFeature(url ?? '', signal))
  const failed = geometry.status === 'error' ? geometry.message : null
  useEffect(() => {
    if (failed === null) return
    window.dispatchEvent(
      new CustomEvent('emberline:toast', {
        detail: { type: 'danger', message: `Could not load the circuit geometry: ${failed}` },
      }),
    )
  }, [failed])
  return url !== null && geometry.status === 'ready' ? geometry.data : null
}
