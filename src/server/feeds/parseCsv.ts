import { parse } from 'csv-parse/sync'
import type { FeedRecord, ParsedFeed } from './feedTypes'
import { FeedFormatError } from './FeedFormatError'

/** Rejects bodies that are clearly not CSV (an HTML error page, JSON). */
function checkNotMarkup(text: string, format: string): void {
  const head = text.trimStart().slice(0, 200).toLowerCase()
  if (head.startsWith('<') || head.startsWith('{') || head.startsWith('['))
    throw new FeedFormatError(
      `not ${format}: the body starts with '${head.slice(0, 15)}' (an HTML or JSON answer?)`,
    )
}

/** File line of every non-empty line (what csv-parse returns records for when no field holds a newline). */
function nonEmptyLines(text: string, fromLine: number): number[] {
  const out: number[] = []
  let line = fromLine
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charCodeAt(i) === 10) {
      line++
      if (text.slice(start, i).trim() !== '') out.push(line)
      start = i + 1
    }
  }
  return out
}

function rows(text: string, fromLine: number): { record: string[]; line: number }[] {
  try {
    const options = { relax_column_count: false, skip_empty_lines: true, bom: true }
    if (!text.includes('"')) {
      // No quoted fields, so one record per non-empty line: csv-parse without its (slower) info.
      const records = parse(text, options) as string[][]
      const lines = nonEmptyLines(text, fromLine)
      return records.map((record, i) => ({ record, line: lines[i] ?? 0 }))
    }
    const out = parse(text, { ...options, info: true }) as unknown as {
      record: string[]
      info: { lines: number }
    }[]
    return out.map((r) => ({ record: r.record, line: r.info.lines + fromLine }))
  } catch (e) {
    throw new FeedFormatError(`not valid CSV: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** CSV records carry their cells (`values`, read by column) and no properties object. */
const NO_PROPS: Record<string, unknown> = Object.freeze({})

/** A CSV with a header row (FIRMS): one record per row, columns by header name; `n` is the file line. */
export function parseCsv(text: string, required: readonly string[]): ParsedFeed {
  checkNotMarkup(text, 'CSV')
  const all = rows(text, 0)
  const header = all.shift()
  if (!header) throw new FeedFormatError('empty CSV: no header row')
  const missing = required.filter((c) => !header.record.includes(c))
  if (missing.length > 0) throw new FeedFormatError(`CSV header lacks column(s) ${missing.join(', ')}`)
  const columns = new Map(header.record.map((h, i) => [h, i]))
  const records: FeedRecord[] = all.map(({ record, line }) => ({
    n: line,
    props: NO_PROPS,
    values: record,
    geometry: null,
  }))
  return { records, unit: 'line', columns }
}

/** Strips the set suffix of a MesoWest/Synoptic variable: air_temp_set_1 → air_temp (derived _set_1d too). */
export function baseVariable(name: string): { name: string; set: number } {
  const m = /^(.*)_set_(\d+)d?$/.exec(name)
  return m ? { name: m[1] ?? name, set: Number(m[2]) } : { name, set: 0 }
}

/**
 * A MesoWest/Synoptic CSV export: `# KEY: value` metadata lines (station, coordinates,
 * elevation), a header, a units row, then observations. Each record holds the metadata plus the
 * row; variables lose their set suffix (the lowest set wins) and carry the units row's units.
 */
export function parseMesowestCsv(text: string, required: readonly string[]): ParsedFeed {
  checkNotMarkup(text, 'MesoWest CSV')
  const lines = text.split(/\r?\n/)
  const meta: Record<string, string> = {}
  let i = 0
  for (; i < lines.length && (lines[i] ?? '').startsWith('#'); i++) {
    const m = /^#\s*([^:]+):\s*(.*)$/.exec(lines[i] ?? '')
    if (m) meta[(m[1] ?? '').trim()] = (m[2] ?? '').trim()
  }
  const all = rows(lines.slice(i).join('\n'), i)
  const header = all.shift()
  const unitsRow = all.shift()
  if (!header || !unitsRow) throw new FeedFormatError('MesoWest CSV needs a header row and a units row')
  if (!header.record.includes('Date_Time')) throw new FeedFormatError(`MesoWest CSV header lacks Date_Time`)
  const columns = header.record.map((h, j) => ({ j, ...baseVariable(h), unit: unitsRow.record[j] ?? '' }))
  const best = new Map<string, (typeof columns)[number]>()
  for (const c of columns) {
    const have = best.get(c.name)
    if (!have || c.set < have.set) best.set(c.name, c)
  }
  const units = Object.fromEntries([...best.values()].filter((c) => c.unit).map((c) => [c.name, c.unit]))
  const records: FeedRecord[] = all.map(({ record, line }) => {
    const props: Record<string, unknown> = { ...meta }
    for (const c of best.values()) props[c.name] = record[c.j]
    return { n: line, props, geometry: null, units }
  })
  const missing = required.filter((c) => records.length > 0 && !(c in (records[0]?.props ?? {})))
  if (missing.length > 0) throw new FeedFormatError(`MesoWest CSV lacks ${missing.join(', ')}`)
  return { records, unit: 'line' }
}
