import type { FeedTimeFormat } from '../../shared/config'

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

function text(v: unknown): string {
  return typeof v === 'number' ? String(v) : typeof v === 'string' ? v : ''
}

function iso(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error('not a time')
  return new Date(ms).toISOString()
}

/** HHMM as FIRMS writes it ('0735', and from the API sometimes unpadded: '230' = 02:30). */
function hhmm(text: string): [number, number] {
  const t = text.trim()
  if (!/^\d{1,4}$/.test(t)) throw new Error(`'${text}' is not HHMM`)
  const v = Number(t)
  const h = Math.floor(v / 100)
  const m = v % 100
  if (h > 23 || m > 59) throw new Error(`'${text}' is not HHMM`)
  return [h, m]
}

const dateHhmmMemo = new Map<string, string>()

function dateHhmm(date: string, time: string): string {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim())
  if (!d) throw new Error(`'${date}' is not YYYY-MM-DD`)
  const [h, m] = hhmm(time)
  return iso(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), h, m))
}

const MAX_MS = 8.64e15 // the range of a JavaScript Date: ±100,000,000 days around 1970

/**
 * `auto` reads a number below this magnitude as epoch seconds, from it on as epoch milliseconds:
 * 1e11 s is the year 5138, 1e11 ms 1973-03-03 (and −1e11 ms 1966-10-31). Only milliseconds
 * between those two dates are misread (as seconds): a source of such dates names `epochMs`.
 */
const SECONDS_BELOW = 1e11

const NUMBER = /^[+-]?\d+(?:\.\d+)?$/
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']
// ISO 8601 extended format: date, optional time (T or space) with seconds and fraction, optional zone.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i
// RFC 1123 (RFC 822 with a four-digit year; HTTP-date is its GMT form): 'Thu, 16 Jan 2025 21:41:54 GMT'.
const RFC1123 =
  /^(?:([a-z]{3}),\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s*(GMT|UTC|UT|Z|[+-]\d{4})$/i

/** Milliseconds of a UTC calendar time, or NaN when a part is out of its range (31 February, 24:00). */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms)
  const back = new Date(t)
  const same =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi &&
    back.getUTCSeconds() === s
  return same ? t : NaN
}

/** '+07', '+0700', '+07:00', 'Z', 'GMT' → minutes east of UTC. */
function offsetMinutes(zone: string | undefined): number {
  if (!zone || /^(z|gmt|utc|ut)$/i.test(zone)) return 0
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)
  if (!m) return NaN
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0)
  return Number(m[2]) > 23 || Number(m[3] ?? 0) > 59 ? NaN : m[1] === '-' ? -minutes : minutes
}

/** ISO 8601 (extended format); a time without a zone is UTC, as feeds mean it. */
function isoTime(s: string): number {
  const m = ISO.exec(s.trim())
  if (!m) throw new Error(`'${s}' is not an ISO 8601 time`)
  const [, y, mo, d, h, mi, sec, frac, zone] = m
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0
  const t = utc(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0), ms)
  const off = offsetMinutes(zone)
  if (Number.isNaN(t) || Number.isNaN(off)) throw new Error(`'${s}' is not a valid ISO 8601 time`)
  return t - off * 60_000
}

/** RFC 1123 ('Thu, 16 Jan 2025 21:41:54 GMT'); a weekday that is not the date's rejects it. */
function rfc1123Time(s: string): number {
  const m = RFC1123.exec(s.trim())
  const month = m ? MONTHS.indexOf((m[3] ?? '').toLowerCase()) : -1
  if (!m || month < 0) throw new Error(`'${s}' is not an RFC 1123 time`)
  const [, weekday, d, , y, h, mi, sec, zone] = m
  const t = utc(Number(y), month + 1, Number(d), Number(h), Number(mi), Number(sec ?? 0))
  const off = offsetMinutes(zone)
  if (Number.isNaN(t) || Number.isNaN(off)) throw new Error(`'${s}' is not a valid RFC 1123 time`)
  if (weekday !== undefined) {
    const day = DAYS.indexOf(weekday.toLowerCase())
    if (day < 0) throw new Error(`'${s}' is not an RFC 1123 time`)
    if (day !== new Date(t).getUTCDay()) throw new Error(`'${s}': ${d} ${m[3]} ${y} is not a ${weekday}`)
  }
  return t - off * 60_000
}

/** An epoch number (a JSON number or its digits): seconds, milliseconds, or by magnitude for `auto`. */
function epochTime(v: unknown, unit: 'seconds' | 'milliseconds' | 'auto'): number {
  const s = text(v).trim()
  const n = typeof v === 'number' ? v : NUMBER.test(s) ? Number(s) : NaN
  if (!Number.isFinite(n))
    throw new Error(
      `'${text(v)}' is not an epoch time in ${unit === 'auto' ? 'seconds or milliseconds' : unit}`,
    )
  const ms = unit === 'milliseconds' || (unit === 'auto' && Math.abs(n) >= SECONDS_BELOW) ? n : n * 1000
  if (Math.abs(ms) > MAX_MS) throw new Error(`'${text(v)}' is out of the range of dates`)
  return ms
}

/** `auto`: epoch seconds or milliseconds (by magnitude), ISO 8601 with or without a zone, or RFC 1123. */
function autoTime(v: unknown): number {
  if (typeof v === 'number') return epochTime(v, 'auto')
  if (typeof v !== 'string') throw new Error(`${JSON.stringify(v)?.slice(0, 40)} is not a time`)
  const s = v.trim()
  if (NUMBER.test(s)) return epochTime(s, 'auto')
  if (/^\d{4}-/.test(s)) return isoTime(s)
  if (RFC1123.test(s)) return rfc1123Time(s)
  throw new Error(`'${v}' is not a time (epoch seconds or milliseconds, ISO 8601 or RFC 1123)`)
}

/**
 * Reads a feed time as an ISO 8601 UTC string. `values` holds one value, or two for
 * `dateHhmm` (YYYY-MM-DD, HHMM). A named format reads only its own spelling; `auto` reads epoch
 * seconds and milliseconds, ISO 8601 and RFC 1123. Throws a short reason when the value is not such a time.
 */
export function parseFeedTime(format: FeedTimeFormat, values: readonly unknown[]): string {
  const [a, b] = values
  switch (format) {
    case 'auto':
      return iso(autoTime(a))
    case 'iso':
      return iso(isoTime(text(a)))
    case 'rfc1123':
      return iso(rfc1123Time(text(a)))
    case 'epochMs':
      return iso(epochTime(a, 'milliseconds'))
    case 'epochSeconds':
      return iso(epochTime(a, 'seconds'))
    case 'dateHhmm': {
      // FIRMS rows share few acquisition minutes: remember the last ones.
      const memo = `${text(a)} ${text(b)}`
      const hit = dateHhmmMemo.get(memo)
      if (hit) return hit
      const out = dateHhmm(text(a), text(b))
      if (dateHhmmMemo.size > 10_000) dateHhmmMemo.clear()
      dateHhmmMemo.set(memo, out)
      return out
    }
    case 'yearDayHhmm': {
      const d = /^(\d{4})(\d{3})\s*(\d{4})(?:UTC)?$/.exec(text(a).trim())
      if (!d) throw new Error(`'${text(a)}' is not 'YYYYDDD HHMM'`)
      const day = Number(d[2])
      if (day < 1 || day > 366) throw new Error(`'${text(a)}' has day of year ${day}`)
      const [h, m] = hhmm(d[3] ?? '')
      return iso(Date.UTC(Number(d[1]), 0, day, h, m))
    }
    case 'usDateTimeUtc': {
      const d = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})(?: UTC)?$/.exec(text(a).trim())
      if (!d) throw new Error(`'${text(a)}' is not 'MM/DD/YYYY HH:MM UTC'`)
      return iso(Date.UTC(Number(d[3]), Number(d[1]) - 1, Number(d[2]), Number(d[4]), Number(d[5])))
    }
  }
}

/** `${YYYY}`, `${MM}`, `${DD}` of a clock (UTC), for URLs of daily files. */
export function datePlaceholders(now: number): Record<string, string> {
  const d = new Date(now)
  return { YYYY: String(d.getUTCFullYear()), MM: pad(d.getUTCMonth() + 1), DD: pad(d.getUTCDate()) }
}
