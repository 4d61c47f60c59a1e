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

/**
 * Reads a feed time as an ISO 8601 UTC string. `values` holds one value, or two for
 * `dateHhmm` (YYYY-MM-DD, HHMM). Throws a short reason when the value is not such a time.
 */
export function parseFeedTime(format: FeedTimeFormat, values: readonly unknown[]): string {
  const [a, b] = values
  switch (format) {
    case 'iso': {
      const s = text(a)
      // A date-time without an offset would be read as local time: feeds mean UTC.
      const withZone = /[zZ]|[+-]\d{2}:?\d{2}$/.test(s) || !/T|\d \d/.test(s) ? s : `${s}Z`
      const ms = /^\d{4}-\d{2}-\d{2}/.test(s) ? Date.parse(withZone) : NaN
      if (Number.isNaN(ms)) throw new Error(`'${s}' is not an ISO 8601 time`)
      return iso(ms)
    }
    case 'epochMs':
    case 'epochSeconds': {
      const n = typeof a === 'number' ? a : Number(text(a))
      if (!Number.isFinite(n) || text(a).trim() === '') throw new Error(`'${text(a)}' is not an epoch time`)
      return iso(format === 'epochMs' ? n : n * 1000)
    }
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
