import {
  WHAT_IF_DEFAULT_HOURS,
  WHAT_IF_MAX_HOURS,
  type FireWhatIfRequest,
} from '../../shared/fireSim/wireTypes'

/** The what-if's query parameters: `fireAt=<lon>,<lat>&fireHour=<h>[&fireHours=<n>]`. */
export const FIRE_URL_KEYS = ['fireAt', 'fireHour', 'fireHours'] as const

const whole = (raw: string | null, min: number, max: number): number | undefined => {
  if (raw === null || !/^\d{1,4}$/.test(raw)) return undefined
  const n = Number(raw)
  return n >= min && n <= max ? n : undefined
}

/** The what-if a share link carries, or null; anything malformed is left out rather than guessed. */
export function readFireUrl(search: string): FireWhatIfRequest | null {
  const params = new URLSearchParams(search)
  const at = params.get('fireAt')?.split(',')
  if (!at || at.length !== 2 || !at.every((v) => /^-?\d{1,3}(\.\d{1,8})?$/.test(v))) return null
  const [lon, lat] = at.map(Number) as [number, number]
  if (Math.abs(lon) > 180 || Math.abs(lat) > 90) return null
  const hour = whole(params.get('fireHour'), 0, 9999)
  const hours = whole(params.get('fireHours'), 1, WHAT_IF_MAX_HOURS)
  return { lon, lat, ...(hour !== undefined ? { hour } : {}), ...(hours !== undefined ? { hours } : {}) }
}

/** `search` with the what-if's parameters set (or removed for null), other parameters kept. */
export function writeFireUrl(search: string, request: FireWhatIfRequest | null): string {
  const params = new URLSearchParams(search)
  for (const k of FIRE_URL_KEYS) params.delete(k)
  if (request) {
    params.set('fireAt', `${request.lon.toFixed(5)},${request.lat.toFixed(5)}`)
    if (request.hour !== undefined) params.set('fireHour', String(request.hour))
    if (request.hours !== undefined && request.hours !== WHAT_IF_DEFAULT_HOURS)
      params.set('fireHours', String(request.hours))
  }
  const text = params.toString().replaceAll('%2C', ',').replaceAll('%3A', ':')
  return text ? `?${text}` : ''
}

/** Rounds a picked point as the URL holds it, so the run and a reopened link ask the same thing. */
export function roundPoint(lon: number, lat: number): [number, number] {
  return [Number(lon.toFixed(5)), Number(lat.toFixed(5))]
}
