import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Types flow one way (#34): no module of the server or of the fire-behaviour core may reach itself
// again through its imports — static imports and `import type` alike, since a type cycle is the
// same tangle for a reader. Each cycle is reported with the files in it and the imports that close it.

const ROOT = resolve(__dirname, '../..')

/** Every TypeScript module (tests excluded) under `dir`. */
function modulesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...modulesUnder(path))
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path)
  }
  return out
}

/** The graph of relative imports among `files` (an import that leaves the set is not an edge). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false)
    const targets: string[] = []
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue
      const base = resolve(dirname(file), fileName).replace(/\.js$/, '')
      const hit = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => known.has(c))
      if (hit && !targets.includes(hit)) targets.push(hit)
    }
    graph.set(file, targets)
  }
  return graph
}

/** The strongly connected components of more than one module (Tarjan), each a cycle of imports. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      component.push(w)
    } while (w !== v)
    if (component.length > 1) cycles.push(component.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return cycles
}

function describeCycle(graph: ReadonlyMap<string, readonly string[]>, cycle: readonly string[]): string {
  return cycle
    .map((f) => {
      const within = (graph.get(f) ?? []).filter((t) => cycle.includes(t)).map((t) => relative(ROOT, t))
      return `${relative(ROOT, f)} → ${within.join(', ')}`
    })
    .join('\n')
}

describe('import cycles', () => {
  it('finds a cycle of type-only imports (the check itself)', () => {
    const a = join(ROOT, 'tests/lint/fixtures/cycle/a.ts')
    const b = join(ROOT, 'tests/lint/fixtures/cycle/b.ts')
    const c = join(ROOT, 'tests/lint/fixtures/cycle/c.ts')
    const graph = importGraph([a, b, c])
    expect(importCycles(graph)).toEqual([[a, b].sort()])
  })

  for (const folder of ['src/server', 'src/fire', 'src/shared']) {
    it(`${folder} has none`, () => {
      const graph = importGraph(modulesUnder(join(ROOT, folder)))
      const found = importCycles(graph).map((c) => describeCycle(graph, c))
      expect(found, found.join('\n\n')).toEqual([])
    })
  }
})
