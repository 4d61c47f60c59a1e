import type { Feature } from 'geojson'
import { useFeatureGeometry } from '../shared/useFeatureGeometry'
import { useFetched, type Loadable } from '../shared/useFetched'
import { fetchPspsEvent, type PspsEvent } from './pspsApi'

/** The event in the server's `sort` order, refetched when the order changes (stale answers dropped). */
export function usePspsEvent(sort: string | null): Loadable<PspsEvent> {
  return useFetched(`sort=${sort ?? ''}`, (signal) => fetchPspsEvent(sort, signal))
}

/** The selected circuit's geometry (null while none is selected or it is loading). */
export function useCircuitGeometry(id: number | null): Feature | null {
  return useFeatureGeometry(id === null ? null : `/api/psps/event/${id}/geometry`)
}
