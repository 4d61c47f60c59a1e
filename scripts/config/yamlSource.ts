import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { Document, LineCounter, Node } from 'yaml'
import { formatDocPath, type PathSegment, type Problem } from './problem'

/** A parsed YAML file that can turn a document path back into a line and column. */
export interface YamlSource {
  file: string
  data: unknown
  /** Problem at `segments` (the key itself when `atKey`, else the value; the nearest existing parent if absent). */
  problemAt(segments: readonly PathSegment[], message: string, atKey?: boolean): Problem
}

export type LoadResult = { ok: true; source: YamlSource } | { ok: false; problems: Problem[] }

type YamlLib = typeof import('yaml')
type Parsed = { doc: Document; counter: LineCounter }

const require = createRequire(import.meta.url)
let yamlLib: YamlLib | undefined
/** The yaml library, loaded only when a file has to be parsed (it costs ~100 ms to load). */
const yaml = (): YamlLib => (yamlLib ??= require('yaml') as YamlLib)

// Parsing the catalogue costs about half a second of CPU, so the data of files that parsed cleanly
// is cached by content hash; the document (for positions) is parsed again only when a problem needs it.
const cacheDir = path.resolve(import.meta.dirname, '../../node_modules/.cache/emberline-config')

function parse(text: string): Parsed {
  const counter = new (yaml().LineCounter)()
  const doc = yaml().parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true })
  return { doc, counter }
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim()
}

function makeSource(file: string, data: unknown, getParsed: () => Parsed): YamlSource {
  const find = (doc: Document, segments: readonly PathSegment[], atKey: boolean): Node | null => {
    const { isMap, isPair, isScalar, isSeq } = yaml()
    let node: unknown = doc.contents
    let found: Node | null = (doc.contents as Node | null) ?? null
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i]
      const last = i === segments.length - 1
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg))
        if (!pair) return found
        node = last && atKey ? pair.key : pair.value
      } else if (isSeq(node) && typeof seg === 'number') {
        node = node.items[seg]
      } else return found
      if (node && typeof node === 'object' && 'range' in node) found = node as Node
      else return found
    }
    return found
  }
  return {
    file,
    data,
    problemAt(segments, message, atKey = false) {
      const { doc, counter } = getParsed()
      const node = find(doc, segments, atKey)
      const { line, col } = node?.range ? counter.linePos(node.range[0]) : { line: 1, col: 1 }
      return { file, line, col, docPath: formatDocPath(segments), message }
    },
  }
}

function cacheFile(text: string): string {
  const version = (require('yaml/package.json') as { version: string }).version
  return path.join(cacheDir, `yaml-${createHash('sha256').update(version).update(text).digest('hex').slice(0, 24)}.json`)
}

function readCache(file: string): { data: unknown } | undefined {
  try {
    return { data: JSON.parse(fs.readFileSync(file, 'utf8')) as unknown }
  } catch {
    return undefined
  }
}

function writeCache(file: string, data: unknown): void {
  const json = JSON.stringify(data)
  if (!isDeepStrictEqual(JSON.parse(json), data)) return // not plain JSON (for example .inf): never cache
  try {
    fs.mkdirSync(cacheDir, { recursive: true })
    const tmp = `${file}.${process.pid}.tmp`
    fs.writeFileSync(tmp, json)
    fs.renameSync(tmp, file)
    pruneCache()
  } catch {
    // read-only checkout: no cache
  }
}

/** Keeps the cache small: past 200 entries, the older half goes. */
function pruneCache(): void {
  const entries = fs.readdirSync(cacheDir).filter((f) => f.startsWith('yaml-'))
  if (entries.length <= 200) return
  const byAge = entries
    .map((f) => ({ f, t: fs.statSync(path.join(cacheDir, f)).mtimeMs }))
    .sort((a, b) => a.t - b.t)
  for (const { f } of byAge.slice(0, entries.length / 2)) fs.rmSync(path.join(cacheDir, f), { force: true })
}

/** Reads and parses one YAML file; missing, empty and malformed files become problems, never exceptions. */
export function loadYaml(file: string): LoadResult {
  const at = (line: number, col: number, message: string): Problem => ({ file, line, col, docPath: '(root)', message })
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return { ok: false, problems: [at(1, 1, code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? 'error'})`)] }
  }
  let parsed: Parsed | undefined
  const getParsed = () => (parsed ??= parse(text))
  const cache = cacheFile(text)
  const cached = readCache(cache)
  if (cached) return { ok: true, source: makeSource(file, cached.data, getParsed) }

  const { doc, counter } = getParsed()
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => {
      const { line, col } = counter.linePos(e.pos[0])
      const message = e.code === 'MULTIPLE_DOCS' ? "a config file holds one document; remove the extra '---'" : firstLine(e.message)
      return at(line, col, `YAML syntax error: ${message}`)
    })
    return { ok: false, problems }
  }
  const { isMap, isScalar } = yaml()
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return { ok: false, problems: [at(1, 1, 'file is empty: expected a mapping of top-level keys')] }
  }
  if (!isMap(doc.contents)) {
    const { line, col } = counter.linePos(doc.contents.range?.[0] ?? 0)
    return { ok: false, problems: [at(line, col, 'expected a mapping of top-level keys at the top of the file')] }
  }
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown
  writeCache(cache, data)
  return { ok: true, source: makeSource(file, data, getParsed) }
}
