/** The parts of the map view a share link carries. */
export interface SharedView {
  /** [longitude, latitude] */
  readonly center?: readonly [number, number]
  readonly zoom?: number
  readonly visibleLayers?: readonly string[]
  /** Selected sub-layer per layer id, e.g. { psps: 'psps_wind_speed' }. */
  readonly subLayers?: Readonly<Record<string, string>>
}

const ID = /^[a-z][a-z0-9_]*$/

/** Writes the view into query parameters `c=lng,lat&z=&layers=a,b&sub=layer:sub`, keeping unrelated ones. */
export function encodeSharedView(view: SharedView, existing = ''): string {
  const params = new URLSearchParams(existing)
  for (const k of ['c', 'z', 'layers', 'sub']) params.delete(k)
  if (view.center) params.set('c', `${view.center[0].toFixed(5)},${view.center[1].toFixed(5)}`)
  if (view.zoom !== undefined) params.set('z', String(Math.round(view.zoom * 100) / 100))
  if (view.visibleLayers) params.set('layers', view.visibleLayers.join(','))
  for (const [layer, sub] of Object.entries(view.subLayers ?? {})) params.append('sub', `${layer}:${sub}`)
  const text = params.toString()
  return text ? `?${text.replaceAll('%2C', ',').replaceAll('%3A', ':')}` : ''
}

/** Reads a view from a query string; anything malformed is left out rather than guessed. */
export function decodeSharedView(search: string): SharedView {
  const params = new URLSearchParams(search)
  const view: { -readonly [K in keyof SharedView]: SharedView[K] } = {}
  const c = params.get('c')?.split(',').map(Number)
  if (c && c.length === 2 && c.every(Number.isFinite)) {
    const [lng = 0, lat = 0] = c
    if (Math.abs(lng) <= 180 && Math.abs(lat) <= 90) view.center = [lng, lat]
  }
  const z = Number(params.get('z'))
  if (params.has('z') && Number.isFinite(z) && z >= 0 && z <= 22) view.zoom = z
  if (params.has('layers'))
    view.visibleLayers = (params.get('layers') ?? '').split(',').filter((id) => ID.test(id))
  const subs = params.getAll('sub').map((s) => s.split(':'))
  const valid = subs.filter(
    (p): p is [string, string] => p.length === 2 && p.every((id) => ID.test(id ?? '')),
  )
  if (valid.length > 0) view.subLayers = Object.fromEntries(valid)
  return view
}
