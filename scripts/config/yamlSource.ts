import fs from 'node:fs'
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import { formatDocPath, type PathSegment, type Problem } from './problem'

/** A parsed YAML file that can turn a document path back into a line and column. */
export interface YamlSource {
  file: string
  data: unknown
  /** Problem at `segments` (the key itself when `atKey`, else the value; the nearest existing parent if absent). */
  problemAt(segments: readonly PathSegment[], message: string, atKey?: boolean): Problem
}

export type LoadResult = { ok: true; source: YamlSource } | { ok: false; problems: Problem[] }

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim()
}

function makeSource(file: string, doc: Document, counter: LineCounter): YamlSource {
  const position = (offset: number) => counter.linePos(offset)
  const find = (segments: readonly PathSegment[], atKey: boolean): Node | null => {
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
    data: doc.toJS({ maxAliasCount: 100 }),
    problemAt(segments, message, atKey = false) {
      const node = find(segments, atKey)
      const { line, col } = node?.range ? position(node.range[0]) : { line: 1, col: 1 }
      return { file, line, col, docPath: formatDocPath(segments), message }
    },
  }
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
  const counter = new LineCounter()
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => {
      const { line, col } = counter.linePos(e.pos[0])
      const text = e.code === 'MULTIPLE_DOCS' ? "a config file holds one document; remove the extra '---'" : firstLine(e.message)
      return at(line, col, `YAML syntax error: ${text}`)
    })
    return { ok: false, problems }
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return { ok: false, problems: [at(1, 1, 'file is empty: expected a mapping of top-level keys')] }
  }
  if (!isMap(doc.contents)) {
    const { line, col } = counter.linePos(doc.contents.range?.[0] ?? 0)
    return { ok: false, problems: [at(line, col, 'expected a mapping of top-level keys at the top of the file')] }
  }
  return { ok: true, source: makeSource(file, doc, counter) }
}
