import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileConfig } from '../../scripts/config/compileConfig'
import { formatProblem } from '../../scripts/config/problem'

// Each tests/config/fixtures/invalid-*/ is a complete config dir (unchanged files are symlinks to
// ../base/) with one mistake; expected.txt holds the exact lines the validator prints for it.
const root = path.join(import.meta.dirname, 'fixtures')
const fixtures = fs
  .readdirSync(root)
  .filter((d) => d.startsWith('invalid-'))
  .sort()

describe('broken-config fixtures', () => {
  it('has at least 25 fixtures, each with its expected output', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(25)
    for (const d of fixtures) expect(fs.existsSync(path.join(root, d, 'expected.txt')), d).toBe(true)
  })

  it('the base they are made from is valid', () => {
    const result = compileConfig(path.join(root, 'base'))
    expect(result.errors).toEqual([])
    expect(result.ok).toBe(true)
  })

  it.each(fixtures)('%s reports the mistake at its file, line and column', (name) => {
    const dir = path.join(root, name)
    const expected = fs.readFileSync(path.join(dir, 'expected.txt'), 'utf8').trim().split('\n')
    const result = compileConfig(dir)
    expect(result.ok).toBe(false)
    expect(result.errors.map((p) => formatProblem(p, dir))).toEqual(expected)
  })
})
