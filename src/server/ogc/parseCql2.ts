/** A CQL2 comparison operator (LIKE for text patterns). */
export type Cql2Op = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'like'

/** One comparison `property op literal` of a CQL2 text filter. */
export interface Cql2Comparison {
  property: string
  op: Cql2Op
  value: string | number
}

export type ParsedCql2 = { ok: true; comparisons: Cql2Comparison[] } | { ok: false; message: string }

const OPS: Record<string, Cql2Op> = { '=': 'eq', '<>': 'neq', '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' }
const FLIP: Record<Cql2Op, Cql2Op> = {
  eq: 'eq',
  neq: 'neq',
  lt: 'gt',
  lte: 'gte',
  gt: 'lt',
  gte: 'lte',
  like: 'like',
}

type Token =
  | { kind: 'ident'; text: string; quoted: boolean }
  | { kind: 'string'; text: string }
  | { kind: 'number'; value: number }
  | { kind: 'op'; text: string }
  | { kind: 'paren'; text: '(' | ')' }

/**
 * What one filter may cost (each past limit is a 400 naming `filter`): its length in characters
 * (also the items schema's maxLength), comparisons (each one pass over a column), parentheses
 * nesting, and the length of a LIKE pattern (a match costs at most value length × pattern length).
 */
export const CQL2_LIMITS = { length: 4000, comparisons: 32, depth: 20, likePattern: 256 } as const

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i] as string
    if (/\s/.test(c)) {
      i++
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: 'paren', text: c })
      i++
    } else if (c === "'") {
      let s = ''
      i++
      for (;;) {
        if (i >= text.length) return 'unterminated string literal'
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            s += "'"
            i += 2
            continue
          }
          i++
          break
        }
        s += text[i]
        i++
      }
      tokens.push({ kind: 'string', text: s })
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1)
      if (end < 0) return 'unterminated quoted property name'
      tokens.push({ kind: 'ident', text: text.slice(i + 1, end), quoted: true })
      i = end + 1
    } else if (/[<>=]/.test(c)) {
      const two = text.slice(i, i + 2)
      const op = two === '<>' || two === '<=' || two === '>=' ? two : c
      tokens.push({ kind: 'op', text: op })
      i += op.length
    } else if (/[-+0-9.]/.test(c)) {
      const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(i))
      if (!m) return `unexpected '${c}' at position ${i + 1}`
      const value = Number(m[0])
      if (!Number.isFinite(value)) return `number ${m[0]} is out of range`
      tokens.push({ kind: 'number', value })
      i += m[0].length
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_.:]*/.exec(text.slice(i)) as RegExpExecArray
      tokens.push({ kind: 'ident', text: m[0], quoted: false })
      i += m[0].length
    } else {
      return `unexpected '${c}' at position ${i + 1}`
    }
  }
  return tokens
}

const isWord = (t: Token | undefined, word: string): boolean =>
  t?.kind === 'ident' && !t.quoted && t.text.toUpperCase() === word

/**
 * Parses the CQL2 text this server supports (Basic CQL2 without OR/NOT): comparisons
 * `property op literal` (or `literal op property`) with = <> < <= > >=, `property LIKE 'pattern'`,
 * joined by AND, optionally in parentheses. Literals: numbers, 'strings', TIMESTAMP('…'), DATE('…').
 */
export function parseCql2(text: string): ParsedCql2 {
  if (text.length > CQL2_LIMITS.length)
    return { ok: false, message: `filter is longer than ${CQL2_LIMITS.length} characters` }
  const tokens = tokenize(text)
  if (typeof tokens === 'string') return { ok: false, message: tokens }
  let pos = 0
  const comparisons: Cql2Comparison[] = []

  const literal = (): string | number | null => {
    const t = tokens[pos]
    if (t?.kind === 'number') {
      pos++
      return t.value
    }
    if (t?.kind === 'string') {
      pos++
      return t.text
    }
    if ((isWord(t, 'TIMESTAMP') || isWord(t, 'DATE')) && tokens[pos + 1]?.kind === 'paren') {
      const open = tokens[pos + 1]
      const s = tokens[pos + 2]
      const close = tokens[pos + 3]
      if (
        open?.kind === 'paren' &&
        open.text === '(' &&
        s?.kind === 'string' &&
        close?.kind === 'paren' &&
        close.text === ')'
      ) {
        pos += 4
        return s.text
      }
    }
    return null
  }

  const property = (): string | null => {
    const t = tokens[pos]
    if (t?.kind !== 'ident') return null
    if (!t.quoted && ['AND', 'OR', 'NOT', 'LIKE', 'TIMESTAMP', 'DATE'].includes(t.text.toUpperCase()))
      return null
    pos++
    return t.text
  }

  const comparison = (): string | null => {
    if (comparisons.length >= CQL2_LIMITS.comparisons)
      return `filter has more than ${CQL2_LIMITS.comparisons} comparisons`
    const start = pos
    const prop = property()
    if (prop !== null) {
      if (isWord(tokens[pos], 'LIKE')) {
        pos++
        const t = tokens[pos]
        if (t?.kind !== 'string') return 'LIKE needs a quoted pattern'
        if (t.text.length > CQL2_LIMITS.likePattern)
          return `LIKE pattern is longer than ${CQL2_LIMITS.likePattern} characters`
        pos++
        comparisons.push({ property: prop, op: 'like', value: t.text })
        return null
      }
      const op = tokens[pos]
      if (op?.kind !== 'op') {
        if (
          isWord(op, 'OR') ||
          isWord(op, 'NOT') ||
          isWord(op, 'IN') ||
          isWord(op, 'BETWEEN') ||
          isWord(op, 'IS')
        )
          return `'${op?.kind === 'ident' ? op.text : ''}' is not supported (only comparisons joined by AND)`
        return `expected a comparison operator after '${prop}'`
      }
      pos++
      const value = literal()
      if (value === null) return `expected a number or a quoted string after '${prop} ${op.text}'`
      comparisons.push({ property: prop, op: OPS[op.text] as Cql2Op, value })
      return null
    }
    pos = start
    const value = literal()
    if (value !== null) {
      const op = tokens[pos]
      if (op?.kind !== 'op') return 'expected a comparison operator'
      pos++
      const prop2 = property()
      if (prop2 === null) return 'a comparison needs a property name'
      comparisons.push({ property: prop2, op: FLIP[OPS[op.text] as Cql2Op], value })
      return null
    }
    const t = tokens[pos]
    if (isWord(t, 'NOT') || isWord(t, 'OR'))
      return `'${t?.kind === 'ident' ? t.text : ''}' is not supported (only comparisons joined by AND)`
    return 'expected a comparison'
  }

  const conjunction = (depth: number): string | null => {
    if (depth > CQL2_LIMITS.depth) return `too deeply nested (more than ${CQL2_LIMITS.depth} parentheses)`
    for (;;) {
      const t = tokens[pos]
      let err: string | null
      if (t?.kind === 'paren' && t.text === '(') {
        pos++
        err = conjunction(depth + 1)
        if (err) return err
        const close = tokens[pos]
        if (close?.kind !== 'paren' || close.text !== ')') return "expected ')'"
        pos++
      } else {
        err = comparison()
        if (err) return err
      }
      if (isWord(tokens[pos], 'AND')) {
        pos++
        continue
      }
      if (isWord(tokens[pos], 'OR')) return "'OR' is not supported (only comparisons joined by AND)"
      return null
    }
  }

  if (tokens.length === 0) return { ok: false, message: 'filter is empty' }
  const err = conjunction(0)
  if (err) return { ok: false, message: err }
  if (pos < tokens.length) return { ok: false, message: 'unexpected text after the filter' }
  return { ok: true, comparisons }
}
