import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// README's first command is `npm ci`: the lock file must be in sync with package.json for every
// platform (npm 11 and Node 20's npm 10 both refuse a lock file that lacks optional platform
// packages), and every locked package must accept the Node version we run on.
const root = path.resolve(import.meta.dirname, '../..')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-lock-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function npmCiDryRun(): { code: number; output: string } {
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, f), path.join(dir, f))
  try {
    const out = execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_loglevel: 'warn' },
    })
    return { code: 0, output: out }
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string }
    return { code: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

describe('package-lock.json', () => {
  const result = npmCiDryRun()

  it('is accepted by `npm ci` as it is', () => {
    expect(result.output).not.toMatch(/Missing: .* from lock file/)
    expect(result.code).toBe(0)
  })

  it(`holds no package whose engines refuse this Node (${process.version})`, () => {
    expect(result.output).not.toMatch(/EBADENGINE/)
  })

  it('records every optional platform package of rollup, not only this machine’s', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>
    }
    const rollup = Object.keys(lock.packages).filter((k) => k.startsWith('node_modules/@rollup/rollup-'))
    expect(rollup).toContain('node_modules/@rollup/rollup-darwin-arm64')
    expect(rollup).toContain('node_modules/@rollup/rollup-win32-x64-msvc')
    expect(rollup.length).toBeGreaterThan(10)
  })
})
