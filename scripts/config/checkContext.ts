import type { PathSegment, Problem } from './problem'
import type { YamlSource } from './yamlSource'

/** Collects cross-reference problems against the YAML sources they point into. */
export class CheckContext {
  readonly problems: Problem[] = []
  constructor(private readonly sources: Record<string, YamlSource>) {}

  report(file: string, segments: readonly PathSegment[], message: string, atKey = false): void {
    const source = this.sources[file]
    if (!source) throw new Error(`unknown config file ${file}`)
    this.problems.push(source.problemAt(segments, message, atKey))
  }

  /** Reports every repeated `id` (at the repeat) and returns the items by id. */
  indexById<T extends { readonly id: string }>(file: string, list: readonly T[], base: PathSegment[], kind: string): Map<string, T> {
    const byId = new Map<string, T>()
    list.forEach((item, i) => {
      if (byId.has(item.id)) this.report(file, [...base, i, 'id'], `duplicate ${kind} id '${item.id}'`)
      else byId.set(item.id, item)
    })
    return byId
  }

  /** Reports `value` unless `known` holds it. */
  ref(
    file: string,
    segments: readonly PathSegment[],
    value: string | undefined,
    known: { has(k: string): boolean },
    kind: string,
    hint?: string,
  ): boolean {
    if (value === undefined) return true
    if (known.has(value)) return true
    this.report(file, segments, `unknown ${kind} '${value}'${hint ? ` (${hint})` : ''}`)
    return false
  }
}
