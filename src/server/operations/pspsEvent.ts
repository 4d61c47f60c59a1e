import type { PspsRollupSettings } from '../../shared/config'
import type { StoredFeature } from '../store/Store'
import { decodeParts, type Parts } from '../store/geometryCodec'

import type { Bbox, CellValue, PspsColumn, PspsEvent, PspsRow } from '../../shared/operations/wireTypes'

export type { Bbox, CellValue, PspsEvent, PspsRow }
/** A column as the browser renders it (from operations.yaml psps.columns). */
export type PspsColumnOut = PspsColumn

export function bboxOfParts(parts: Parts): Bbox | null {
  let minx = Infinity
  let miny = Infinity
  let maxx = -Infinity
  let maxy = -Infinity
  for (const part of parts)
    for (const ring of part)
      for (const p of ring) {
        const x = p[0] ?? NaN
        const y = p[1] ?? NaN
        if (!Number.isFinite(x) || !Number.isFinite(y)) continue
        minx = Math.min(minx, x)
        miny = Math.min(miny, y)
        maxx = Math.max(maxx, x)
        maxy = Math.max(maxy, y)
      }
  return minx <= maxx ? [minx, miny, maxx, maxy] : null
}

const num = (v: CellValue | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null

function earliest(values: readonly CellValue[], pick: (a: number, b: number) => boolean): string | null {
  let best: string | null = null
  let bestT = NaN
  for (const v of values) {
    if (typeof v !== 'string') continue
    const t = Date.parse(v)
    if (Number.isNaN(t)) continue
    if (best === null || pick(t, bestT)) {
      best = v
      bestT = t
    }
  }
  return best
}

export function columnsOut(settings: PspsRollupSettings): PspsColumnOut[] {
  return settings.columns.map((c) => ({
    field: c.field,
    label: c.label,
    formatter: c.formatter ?? null,
    total: c.total ?? null,
  }))
}

/** Sums the `total: sum` columns over the rows (the totals row always matches the rows). */
export function totalsOf(
  columns: readonly PspsColumnOut[],
  rows: readonly PspsRow[],
): Record<string, number> {
  const totals: Record<string, number> = {}
  for (const c of columns) {
    if (c.total !== 'sum') continue
    const sum = rows.reduce((acc, r) => acc + (num(r.values[c.field]) ?? 0), 0)
    // Rounded to 1e-9 so decimal columns do not show binary noise (0.30000000000000004).
    totals[c.field] = Math.round(sum * 1e9) / 1e9
  }
  return totals
}

/** The PSPS event roll-up of the circuits dataset, rows in store id order. */
export function buildPspsEvent(settings: PspsRollupSettings, features: readonly StoredFeature[]): PspsEvent {
  const columns = columnsOut(settings)
  const rows = features.map((f): PspsRow => {
    const p = f.properties
    const gust = num(p[settings.gust])
    const threshold = num(p[settings.threshold])
    const values: Record<string, CellValue> = {}
    for (const c of columns) values[c.field] = p[c.field] ?? null
    return {
      id: f.id,
      key: String(p[settings.key] ?? f.id),
      bbox: bboxOfParts(decodeParts(f.geom)),
      gust,
      threshold,
      gustExceedsThreshold: gust !== null && threshold !== null && gust > threshold,
      values,
    }
  })
  return {
    window: {
      start: earliest(
        features.map((f) => f.properties[settings.windowStart] ?? null),
        (a, b) => a < b,
      ),
      end: earliest(
        features.map((f) => f.properties[settings.windowEnd] ?? null),
        (a, b) => a > b,
      ),
    },
    columns,
    rows,
    totals: totalsOf(columns, rows),
    count: rows.length,
  }
}

export interface SortSpec {
  field: string
  descending: boolean
}

/** Parses `field` / `-field` against the columns; null when the field is not a column. */
export function parseSort(sort: string, columns: readonly PspsColumnOut[]): SortSpec | null {
  const descending = sort.startsWith('-')
  const field = descending ? sort.slice(1) : sort
  return columns.some((c) => c.field === field) ? { field, descending } : null
}

function compareCells(a: CellValue, b: CellValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a).localeCompare(String(b), 'en', { numeric: true })
}

/** Rows sorted by one column (missing values last either way), ties by id. */
export function sortRows(rows: readonly PspsRow[], spec: SortSpec): PspsRow[] {
  const sign = spec.descending ? -1 : 1
  return [...rows].sort((x, y) => {
    const a = x.values[spec.field] ?? null
    const b = y.values[spec.field] ?? null
    if (a === null || b === null) return compareCells(a, b) || x.id - y.id
    return sign * compareCells(a, b) || x.id - y.id
  })
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** CSV of the event: header = labels, one line per row (values as stored), a final Total line. */
export function pspsCsv(event: Pick<PspsEvent, 'columns' | 'rows' | 'totals'>): string {
  const cell = (v: CellValue | undefined): string => (v === null || v === undefined ? '' : String(v))
  const lines: string[][] = [event.columns.map((c) => c.label)]
  for (const r of event.rows) lines.push(event.columns.map((c) => cell(r.values[c.field])))
  lines.push(
    event.columns.map((c, i) => {
      const total = event.totals[c.field]
      if (total !== undefined) return String(total)
      return i === 0 ? 'Total' : ''
    }),
  )
  return lines.map((l) => l.map(csvField).join(',')).join('\r\n') + '\r\n'
}
