import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// scripts/test.sh runs typecheck, lint, the format check and the build side by side with run_steps
// (scripts/parallelSteps.sh): a failing step fails the run, and every step's output is shown whole.
const root = path.resolve(import.meta.dirname, '..')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-steps-test-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function runSteps(...steps: string[]): { status: number | null; out: string } {
  const quoted = steps.map((s) => `'${s.replace(/'/g, `'\\''`)}'`).join(' ')
  const r = spawnSync(
    'bash',
    ['-c', `set -euo pipefail; source scripts/parallelSteps.sh; run_steps ${quoted}`],
    {
      cwd: root,
      env: { ...process.env, TMPDIR: dir },
      encoding: 'utf8',
    },
  )
  return { status: r.status, out: `${r.stdout}${r.stderr}` }
}

describe('run_steps', () => {
  it('passes when every step passes, each output under its step', () => {
    const r = runSteps('echo one', 'echo two')
    expect(r.status, r.out).toBe(0)
    expect(r.out).toBe('── echo one (exit 0)\none\n── echo two (exit 0)\ntwo\n')
  })

  it('fails when any step fails (also a later one), and still shows every output', () => {
    const r = runSteps('echo fine', 'echo broken >&2; exit 3', 'echo also fine')
    expect(r.status, r.out).toBe(1)
    expect(r.out).toContain('── echo broken >&2; exit 3 (exit 3)\nbroken\n')
    expect(r.out).toContain('── echo fine (exit 0)\nfine\n')
    expect(r.out).toContain('── echo also fine (exit 0)\nalso fine\n')
  })

  it('fails on a failing command inside a step, not only on its last one', () => {
    const r = runSteps('false; echo after')
    expect(r.status, r.out).toBe(1)
    expect(r.out).toBe('── false; echo after (exit 1)\n')
  })

  it('runs the steps at the same time: the first waits for a file only the second writes', () => {
    const flag = path.join(dir, 'second-ran')
    const waitForFlag = `for i in $(seq 100); do [ -e ${flag} ] && exit 0; sleep 0.1; done; echo "flag""-missing"; exit 1`
    const r = runSteps(waitForFlag, `touch ${flag}`)
    expect(r.status, r.out).toBe(0)
    // The step's header echoes the command; only the step itself prints flag-missing.
    expect(r.out).not.toContain('flag-missing')
  })

  it('leaves no temp directory behind', () => {
    runSteps('echo x')
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('emberline-steps-'))).toEqual([])
  })
})
