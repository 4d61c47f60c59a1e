import type { FeedRecord, ParsedFeed } from './feedTypes'
import { FeedFormatError } from './FeedFormatError'
import { baseVariable } from './parseCsv'
import { parseJsonBody } from './parseGeoJson'

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

const num = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN

/**
 * Synoptic `stations/timeseries` (or `latest`) JSON: one record per station and observation
 * time, holding the station's metadata (STID, NAME, ELEVATION, MNET_ID…), `date_time` and each
 * variable under its name without the set suffix (lowest set wins), with units from the UNITS block.
 */
export function parseSynoptic(text: string): ParsedFeed {
  const doc = parseJsonBody(text, 'Synoptic JSON')
  if (!isRecord(doc) || !Array.isArray(doc.STATION)) {
    const summary = isRecord(doc) && isRecord(doc.SUMMARY) ? ` (${String(doc.SUMMARY.RESPONSE_MESSAGE)})` : ''
    throw new FeedFormatError(`not Synoptic JSON: no STATION list${summary}`)
  }
  const units: Record<string, string> = {}
  for (const [k, v] of Object.entries(isRecord(doc.UNITS) ? doc.UNITS : {}))
    if (typeof v === 'string') units[k] = v
  const records: FeedRecord[] = []
  doc.STATION.forEach((raw, s) => {
    const station = isRecord(raw) ? raw : {}
    const meta: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(station)) if (!isRecord(v) && !Array.isArray(v)) meta[k] = v
    const lon = num(station.LONGITUDE)
    const lat = num(station.LATITUDE)
    const geometry =
      Number.isFinite(lon) && Number.isFinite(lat)
        ? { type: 'Point' as const, coordinates: [lon, lat] }
        : null
    const obs = isRecord(station.OBSERVATIONS) ? station.OBSERVATIONS : {}
    if (Array.isArray(obs.date_time)) {
      const best = new Map<string, { set: number; values: unknown[] }>()
      for (const [k, v] of Object.entries(obs)) {
        if (k === 'date_time' || !Array.isArray(v)) continue
        const { name, set } = baseVariable(k)
        const have = best.get(name)
        if (!have || set < have.set) best.set(name, { set, values: v })
      }
      obs.date_time.forEach((t, i) => {
        const props: Record<string, unknown> = { ...meta, date_time: t }
        for (const [name, { values }] of best) props[name] = values[i]
        records.push({ n: s + 1, props, geometry, units })
      })
    } else {
      // `latest`: { air_temp_value_1: { value, date_time } }
      const props: Record<string, unknown> = { ...meta }
      let newest = ''
      for (const [k, v] of Object.entries(obs)) {
        if (!isRecord(v)) continue
        const name = k.replace(/_value_\d+d?$/, '')
        if (props[name] === undefined) props[name] = v.value
        if (typeof v.date_time === 'string' && v.date_time > newest) newest = v.date_time
      }
      props.date_time = newest || undefined
      records.push({ n: s + 1, props, geometry, units })
    }
  })
  return { records, unit: 'station' }
}
