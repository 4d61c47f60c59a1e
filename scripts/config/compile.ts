// Config compiler: validates config/*.yaml (schemas + cross-references) and writes
// src/generated/types.ts (from schema/*.schema.json) and src/generated/config.ts (the typed data).
// On any problem it prints them like validate-config, leaves src/generated/ untouched and exits 1.
import fs from 'node:fs'
import path from 'node:path'
import { compileConfig } from './compileConfig'
import { writeConfigReference } from './configReference'
import { emitConfigModule } from './emitConfigModule'
import { generateTypes } from './generateTypes'
import { formatProblem } from './problem'

const outDir = path.resolve(import.meta.dirname, '../../src/generated')

function writeIfChanged(file: string, text: string): void {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return
  fs.writeFileSync(file, text)
}

async function main(): Promise<number> {
  const result = compileConfig()
  if (!result.ok) {
    for (const p of result.errors) console.log(formatProblem(p))
    console.log(`config: ${result.errors.length} problem(s); src/generated/ not updated`)
    return 1
  }
  fs.mkdirSync(outDir, { recursive: true })
  writeIfChanged(path.join(outDir, 'types.ts'), await generateTypes())
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
