import { parseDecimal } from '../http/strictNumbers'
import type { Bbox } from './queryItems'

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string }

/** `bbox=minLon,minLat,maxLon,maxLat` (or six numbers with heights) in CRS84 degrees. */
export function parseBbox(text: string): Parsed<Bbox> {
  const parts = text.split(',')
  if (parts.length !== 4 && parts.length !== 6)
    return {
      ok: false,
      message: 'bbox must be 4 (or 6) comma-separated numbers: minLon,minLat,maxLon,maxLat',
    }
  // Plain decimals (an exponent allowed: GDAL writes %.18g), finite: no spaces, `+`, hex or Infinity.
  const n = parts.map((p) => parseDecimal(p, { integer: false }))
  if (n.some((v) => v === null))
    return {
      ok: false,
      message: `bbox holds a value that is not a finite decimal number: ${text.slice(0, 80)}`,
    }
  const [x0, y0, x1, y1] = (parts.length === 4 ? n : [n[0], n[1], n[3], n[4]]) as number[]
  const box = [x0, y0, x1, y1] as [number, number, number, number]
  if (Math.abs(box[0]) > 180 || Math.abs(box[2]) > 180)
    return { ok: false, message: 'bbox longitudes must be within -180..180' }
  if (Math.abs(box[1]) > 90 || Math.abs(box[3]) > 90)
    return { ok: false, message: 'bbox latitudes must be within -90..90' }
  if (box[1] > box[3]) return { ok: false, message: 'bbox minLat must not be above maxLat' }
  return { ok: true, value: box }
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2}))?$/

/** An RFC 3339 date-time (or a full date: the whole UTC day) as [start, end] epoch ms. */
function parseInstant(text: string): [number, number] | null {
  const m = INSTANT.exec(text)
  if (!m) return null
  const [, y, mo, d, h] = m
  const month = Number(mo)
  const day = Number(d)
  if (month < 1 || month > 12 || day < 1 || day > 31) return null
  if (h === undefined) {
    const start = Date.UTC(Number(y), month - 1, day)
    if (new Date(start).getUTCDate() !== day) return null
    return [start, start + 86_400_000 - 1]
  }
  const t = Date.parse(text.replace(' ', 'T'))
  if (!Number.isFinite(t)) return null
  return [t, t]
}

/** `datetime`: an instant, or an interval `start/end` where either end may be `..` or empty (open). */
export function parseDatetime(text: string): Parsed<[number, number]> {
  const bad = {
    ok: false as const,
    message: `datetime must be an RFC 3339 date-time or an interval start/end (.. for open): ${text.slice(0, 80)}`,
  }
  const parts = text.split('/')
  if (parts.length === 1) {
    const one = parseInstant(text.trim())
    return one ? { ok: true, value: one } : bad
  }
  if (parts.length !== 2) return bad
  const [a, b] = parts.map((p) => p.trim()) as [string, string]
  const open = (s: string) => s === '' || s === '..'
  if (open(a) && open(b)) return { ok: false, message: 'datetime interval needs at least one bounded end' }
  const start = open(a) ? -Infinity : parseInstant(a)?.[0]
  const end = open(b) ? Infinity : parseInstant(b)?.[1]
  if (start === undefined || end === undefined) return bad
  if (start > end) return { ok: false, message: 'datetime interval start is after its end' }
  return { ok: true, value: [start, end] }
}
