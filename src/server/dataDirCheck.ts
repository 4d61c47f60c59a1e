import fs from 'node:fs'
import path from 'node:path'

/**
 * Why the server cannot use `dir` as its data directory (it cannot be created, or a file cannot be
 * written in it), as one line for the operator; null when it is usable.
 */
export function dataDirProblem(dir: string): string | null {
  const probe = path.join(dir, `.write-test-${process.pid}`)
  try {
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(probe, '')
    fs.rmSync(probe)
    return null
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error'
    return `cannot write to the data directory ${dir} (${code}): set DATA_DIR to a writable directory`
  }
}
