import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker, type ResourceLimits } from 'node:worker_threads'

/**
 * Starts a worker thread on a module of this folder (`name` without extension). When the server
 * runs from TypeScript sources (tsx, vitest), the worker registers tsx's loader first.
 * `resourceLimits` bound the worker's V8 heap (past them it stops, not the server).
 */
export function startWorker(name: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const ts = import.meta.url.endsWith('.ts')
  const url = new URL(`./${name}.${ts ? 'ts' : 'js'}`, import.meta.url)
  if (!ts) return new Worker(url, { workerData, ...(resourceLimits ? { resourceLimits } : {}) })
  // tsx's ESM register API (the package's "import" entry sits beside the resolved CommonJS one).
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs')
  const boot = `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true, workerData, ...(resourceLimits ? { resourceLimits } : {}) })
}
