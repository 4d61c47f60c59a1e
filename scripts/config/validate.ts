// Validator CLI for QA: `npm run validate-config [-- [--online] path/to/config-dir]`.
// `--online` also asks each external source's server for its capabilities (scripts/config/online.ts).
// Exit 0 with a one-line summary when the config is valid; otherwise one line per problem
// (`config/layers.yaml:LINE:COL  <path in document>  <message>`) on stdout, a count on stderr, and
// exit 1. Never a stack trace.
import fs from 'node:fs'
import path from 'node:path'
import { compileConfig, defaultConfigDir } from './compileConfig'
import { formatProblem } from './problem'
import { loadYaml } from './yamlSource'

async function main(): Promise<number> {
  const started = performance.now()
  const arg = process.argv.slice(2).find((a) => !a.startsWith('-'))
  const dir = arg ? path.resolve(arg) : defaultConfigDir
  const result = compileConfig(dir)
  const rel = path.relative(process.cwd(), dir) || '.'
  if (!result.ok) {
    for (const p of result.errors) console.log(formatProblem(p))
    console.error(`${rel}: ${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}`)
    return 1
  }
  const { layers, tables } = result.config
  if (process.argv.includes('--online')) {
    const loaded = loadYaml(path.resolve(dir, 'layers.yaml'))
    if (!loaded.ok) return 1
    const [lon, lat] = result.config.app.map.live.center
    // The online checks read through the server's own source readers, which need the compiled
    // config; loaded only here, so plain validation runs on a clean clone before `npm run config`.
    if (!fs.existsSync(path.resolve(import.meta.dirname, '../../src/generated/config.ts'))) {
      console.error('validate-config --online: run `npm run config` first (the online checks use the compiled config)')
      return 1
    }
    const { checkOnline } = await import('./online')
    const problems = await checkOnline(loaded.source, layers.sources, process.env, [lon, lat])
    for (const p of problems) console.log(formatProblem(p))
    if (problems.length > 0) {
      console.error(`${rel}: ${problems.length} online problem${problems.length === 1 ? '' : 's'}`)
      return 1
    }
  }
  const ms = Math.round(performance.now() - started)
  console.log(
    `OK ${rel}: ${layers.layers.length} layers, ${layers.mapLayers.length} map layers, ${layers.sources.length} sources, ` +
      `${layers.legends.length} legends, ${tables.tables.length} tables (${ms} ms)`,
  )
  return 0
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.log(`validate-config: internal error: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 2
  },
)
