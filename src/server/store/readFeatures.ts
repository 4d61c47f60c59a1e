import fs from 'node:fs'
import type { Geometry } from 'geojson'
import { FeatureError, type FeatureInput } from './writeDataset'

const CHUNK = 4 * 1024 * 1024

/** The lines of a file, read synchronously in chunks (files larger than a JS string work). */
export function* fileLines(file: string): Generator<{ line: number; text: string }> {
  const fd = fs.openSync(file, 'r')
  const buf = Buffer.alloc(CHUNK)
  let rest = ''
  let line = 0
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null)
      if (n === 0) break
      const text = rest + buf.toString('utf8', 0, n)
      const parts = text.split('\n')
      rest = parts.pop() ?? ''
      for (const p of parts) yield { line: ++line, text: p.replace(/\r$/, '') }
    }
    if (rest !== '') yield { line: ++line, text: rest.replace(/\r$/, '') }
  } finally {
    fs.closeSync(fd)
  }
}

function asFeature(value: unknown, line: number): FeatureInput {
  if (typeof value !== 'object' || value === null)
    throw new FeatureError(line, 'expected a GeoJSON Feature object')
  const f = value as { type?: unknown; geometry?: unknown; properties?: unknown }
  if (f.type !== 'Feature')
    throw new FeatureError(line, `expected "type": "Feature", got ${JSON.stringify(f.type)}`)
  const props = f.properties
  if (props !== null && props !== undefined && (typeof props !== 'object' || Array.isArray(props))) {
    throw new FeatureError(line, 'properties must be an object')
  }
  return { geometry: f.geometry as Geometry, properties: (props as Record<string, unknown>) ?? {}, line }
}

/** Newline-delimited GeoJSON Features (blank lines skipped). */
export function* readNdjson(file: string): Generator<FeatureInput> {
  for (const { line, text } of fileLines(file)) {
    if (text.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      throw new FeatureError(line, `invalid JSON (${e instanceof Error ? e.message : String(e)})`)
    }
    yield asFeature(value, line)
  }
}

/** A GeoJSON FeatureCollection; errors name the line where the feature starts. */
export function* readGeojson(file: string): Generator<FeatureInput> {
  const text = fs.readFileSync(file, 'utf8')
  const lineAt = (pos: number): number => text.slice(0, pos).split('\n').length
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    const m = /position (\d+)/.exec(e instanceof Error ? e.message : '')
    throw new FeatureError(
      m ? lineAt(Number(m[1])) : undefined,
      `invalid JSON (${e instanceof Error ? e.message : String(e)})`,
    )
  }
  const fc = doc as { type?: unknown; features?: unknown }
  if (fc.type !== 'FeatureCollection' || !Array.isArray(fc.features)) {
    throw new FeatureError(1, 'expected a GeoJSON FeatureCollection')
  }
  // Features come in text order: count the newlines once, from one feature's start to the next.
  let from = 0
  let line = 1
  let counted = 0
  for (const value of fc.features) {
    const at = text.indexOf('"Feature"', from)
    if (at >= 0) {
      for (let k = text.indexOf('\n', counted); k >= 0 && k < at; k = text.indexOf('\n', k + 1)) line++
      counted = at
      from = at + 9
    }
    yield asFeature(value, at >= 0 ? line : 0)
  }
}

/** Splits one CSV line (RFC 4180 quoting within the line). */
export function splitCsvLine(line: string): string[] {
  const out: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (c === '"') quoted = false
      else cur += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      out.push(cur)
      cur = ''
    } else cur += c
  }
  if (quoted) throw new Error('unterminated quoted field')
  out.push(cur)
  return out
}

const LON = ['lon', 'lng', 'longitude', 'x']
const LAT = ['lat', 'latitude', 'y']

/** CSV with a header: point datasets from lon/lat columns, any dataset from a GeoJSON `geometry` column. */
export function* readCsv(file: string): Generator<FeatureInput> {
  let header: string[] | null = null
  let lonAt = -1
  let latAt = -1
  let geomAt = -1
  for (const { line, text } of fileLines(file)) {
    if (text.trim() === '') continue
    let cells: string[]
    try {
      cells = splitCsvLine(text)
    } catch (e) {
      throw new FeatureError(line, e instanceof Error ? e.message : String(e))
    }
    if (!header) {
      header = cells.map((c) => c.trim())
      const lower = header.map((h) => h.toLowerCase())
      lonAt = lower.findIndex((h) => LON.includes(h))
      latAt = lower.findIndex((h) => LAT.includes(h))
      geomAt = lower.indexOf('geometry')
      if (geomAt < 0 && (lonAt < 0 || latAt < 0))
        throw new FeatureError(line, 'the header needs lon and lat columns or a geometry column')
      continue
    }
    if (cells.length !== header.length)
      throw new FeatureError(line, `expected ${header.length} columns, found ${cells.length}`)
    const properties: Record<string, unknown> = {}
    header.forEach((h, i) => (properties[h] = cells[i]))
    let geometry: Geometry
    if (geomAt >= 0) {
      try {
        geometry = JSON.parse(cells[geomAt] ?? '') as Geometry
      } catch {
        throw new FeatureError(line, 'the geometry column is not GeoJSON')
      }
    } else {
      geometry = { type: 'Point', coordinates: [Number(cells[lonAt]), Number(cells[latAt])] }
    }
    yield { geometry, properties, line }
  }
}

/** Features of a .geojson, .ndjson/.geojsonl/.jsonl or .csv file. */
export function readFeatures(file: string): Iterable<FeatureInput> {
  const lower = file.toLowerCase()
  if (lower.endsWith('.ndjson') || lower.endsWith('.geojsonl') || lower.endsWith('.jsonl'))
    return readNdjson(file)
  if (lower.endsWith('.geojson') || lower.endsWith('.json')) return readGeojson(file)
  if (lower.endsWith('.csv')) return readCsv(file)
  throw new Error(`${file}: unsupported format (use .geojson, .ndjson or .csv)`)
}
