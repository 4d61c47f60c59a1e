/** The briefing route. */
export const BRIEFING_PATH = '/Briefing'

/**
 * /Briefing with the share-link parameters (view, layers, sub-layers, forecast hour, a fire what-if's
 * `fireAt`/`fireHour`/`fireHours`) of `search`.
 */
export function briefingPath(search: string): string {
  const from = new URLSearchParams(search)
  const kept = new URLSearchParams()
  for (const key of ['c', 'z', 'layers', 'sub', 'hour', 'fireAt', 'fireHour', 'fireHours'])
    for (const v of from.getAll(key)) kept.append(key, v)
  const query = kept.toString().replaceAll('%2C', ',').replaceAll('%3A', ':')
  return query ? `${BRIEFING_PATH}?${query}` : BRIEFING_PATH
}
