import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { likeMatcher } from './likeMatcher'

/** The reference: the LIKE pattern as an anchored regular expression (fine on small strings). */
function reference(pattern: string): (value: string) => boolean {
  const esc = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string
    if (c === '\\' && i + 1 < pattern.length) re += esc(pattern[++i] as string)
    else if (c === '%') re += '[\\s\\S]*'
    else if (c === '_') re += '[\\s\\S]'
    else re += esc(c)
  }
  const rx = new RegExp(`^${re}$`)
  return (value) => rx.test(value)
}

describe('likeMatcher', () => {
  it.each([
    ['%', '', true],
    ['%', 'anything', true],
    ['', '', true],
    ['', 'a', false],
    ['abc', 'abc', true],
    ['abc', 'abcd', false],
    ['a%', 'abc', true],
    ['%c', 'abc', true],
    ['%b%', 'abc', true],
    ['a_c', 'abc', true],
    ['a_c', 'ac', false],
    ['a%b%c', 'aXbYc', true],
    ['a%b%c', 'acb', false],
    ['%ab%ab%', 'xabyab', true],
    ['%ab%ab%', 'xaby', false],
    ['a%a', 'a', false],
    ['_%_', 'a', false],
    ['_%_', 'ab', true],
    ['100\\%', '100%', true],
    ['100\\%', '1000', false],
    ['a\\_b', 'a_b', true],
    ['a\\_b', 'axb', false],
    ['a\\\\b', 'a\\b', true],
    ['end\\', 'end\\', true],
    ['%x_%_y%', 'aaxbcyd', true],
    ['%x_%_y%', 'xby', false],
  ])('%j matches %j: %s', (pattern, value, expected) => {
    expect(likeMatcher(pattern)(value)).toBe(expected)
  })

  it('agrees with the regular-expression reference on small random strings', () => {
    const char = fc.constantFrom('a', 'b', 'c', '%', '_', '\\', '.', '*')
    const valueChar = fc.constantFrom('a', 'b', 'c', '%', '_', '\\', '.')
    fc.assert(
      fc.property(
        fc.string({ unit: char, maxLength: 10 }),
        fc.array(fc.string({ unit: valueChar, maxLength: 14 }), { minLength: 1, maxLength: 8 }),
        (pattern, values) => {
          const ours = likeMatcher(pattern)
          const theirs = reference(pattern)
          for (const v of values) expect(ours(v), `${pattern} ~ ${v}`).toBe(theirs(v))
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('stays polynomial where a backtracking regular expression explodes', () => {
    // `%a%a…%a%b%` against 100,000 a's: the regular expression tries every way of placing 200
    // runs (longer than the universe's age); the matcher finds each a once, then scans for b.
    const value = 'a'.repeat(100_000)
    const started = performance.now()
    expect(likeMatcher(`${'%a'.repeat(200)}%b%`)(value)).toBe(false)
    expect(likeMatcher(`${'%a'.repeat(200)}%`)(value)).toBe(true)
    expect(likeMatcher(`${'%'.repeat(2000)}!`)(value)).toBe(false)
    expect(likeMatcher(`${'%_'.repeat(500)}%`)(value)).toBe(true)
    expect(likeMatcher(`${'%a_a'.repeat(100)}%b`)(`${value}b`)).toBe(true)
    expect(performance.now() - started).toBeLessThan(5000)
  })
})
