import path from 'node:path'

/** One thing wrong with the config, located in its YAML file. */
export interface Problem {
  /** Absolute path of the YAML file. */
  file: string
  /** 1-based line and column. */
  line: number
  col: number
  /** Where in the document, for example `layers[3].category`. */
  docPath: string
  message: string
}

export type PathSegment = string | number

/** `layers[3].paint.color`; `(root)` for the document itself. */
export function formatDocPath(segments: readonly PathSegment[]): string {
  let out = ''
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`
    else out += `[${JSON.stringify(seg)}]`
  }
  return out === '' ? '(root)' : out
}

/** `config/layers.yaml:12:5  layers[3].category  unknown category 'x'` (file relative to cwd). */
export function formatProblem(p: Problem, cwd = process.cwd()): string {
  const rel = path.relative(cwd, p.file).split(path.sep).join('/')
  return `${rel}:${p.line}:${p.col}  ${p.docPath}  ${p.message}`
}

export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col)
}
