// Config compiler: validates config/*.yaml (schemas + cross-references) and writes
// src/generated/types.ts (from schema/*.schema.json) and src/generated/config.ts (the typed data).
// On any problem it prints them like validate-config, leaves src/generated/ untouched and exits 1.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { compileConfig } from './compileConfig'
import { writeConfigReference } from './configReference'
import { emitConfigModule } from './emitConfigModule'
import { formatProblem } from './problem'
import { CONFIG_FILES, schemaDir } from './schemaValidate'

const outDir = path.resolve(import.meta.dirname, '../../src/generated')

function writeIfChanged(file: string, text: string): void {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return
  fs.writeFileSync(file, text)
}

/** Hash of everything types.ts is generated from; stamped into it so an unchanged schema skips the slow generator. */
function typesInputHash(): string {
  const require = createRequire(import.meta.url)
  const hash = createHash('sha256')
  hash.update((require('json-schema-to-typescript/package.json') as { version: string }).version)
  hash.update(fs.readFileSync(path.join(import.meta.dirname, 'generateTypes.ts')))
  for (const n of CONFIG_FILES) hash.update(fs.readFileSync(path.join(schemaDir, `${n}.schema.json`)))
  return hash.digest('hex').slice(0, 16)
}

async function writeTypes(file: string): Promise<void> {
  const stamp = `// inputs: ${typesInputHash()}`
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').split('\n', 2)[1] === stamp) return
  const { generateTypes } = await import('./generateTypes')
  const [header, ...rest] = (await generateTypes()).split('\n')
  writeIfChanged(file, [header, stamp, ...rest].join('\n'))
}

async function main(): Promise<number> {
  const result = compileConfig()
  if (!result.ok) {
    for (const p of result.errors) console.log(formatProblem(p))
    console.log(`config: ${result.errors.length} problem(s); src/generated/ not updated`)
    return 1
  }
  fs.mkdirSync(outDir, { recursive: true })
  await writeTypes(path.join(outDir, 'types.ts'))
  writeIfChanged(path.join(outDir, 'config.ts'), emitConfigModule(result.config))
  await writeConfigReference()
  return 0
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.log(`config: internal error: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 2
  },
)
