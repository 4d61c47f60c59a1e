import { describe, expect, it } from 'vitest'
import { parseCql2 } from './parseCql2'
import { parseBbox, parseDatetime } from './parseParams'

describe('parseCql2', () => {
  it('reads comparisons joined by AND, in parentheses, with flipped literals and typed literals', () => {
    expect(
      parseCql2(
        `a >= 5 AND ("b" = 'O''Neil') and 3 < c AND d LIKE '%x%' AND e = TIMESTAMP('2025-03-05T00:00:00Z')`,
      ),
    ).toEqual({
      ok: true,
      comparisons: [
        { property: 'a', op: 'gte', value: 5 },
        { property: 'b', op: 'eq', value: "O'Neil" },
        { property: 'c', op: 'gt', value: 3 },
        { property: 'd', op: 'like', value: '%x%' },
        { property: 'e', op: 'eq', value: '2025-03-05T00:00:00Z' },
      ],
    })
    expect(parseCql2('x <> -1.5e2')).toEqual({
      ok: true,
      comparisons: [{ property: 'x', op: 'neq', value: -150 }],
    })
  })

  it.each([
    ['a = 1 OR b = 2', /OR/],
    ['NOT a = 1', /NOT/],
    ['a IN (1, 2)', /IN|unexpected/],
    ["a = 'open", /unterminated/],
    ['a =', /expected a number/],
    ['a = 1 b', /after the filter/],
    ['(a = 1', /\)/],
    ['', /empty/],
    ['a ! 1', /unexpected/],
    ['1e999 = a', /out of range/],
    ['('.repeat(30) + 'a = 1' + ')'.repeat(30), /nested/],
  ])('rejects %j', (text, message) => {
    const parsed = parseCql2(text)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.message).toMatch(message)
  })
})

describe('parseBbox and parseDatetime', () => {
  it('reads 4 or 6 numbers and checks ranges', () => {
    expect(parseBbox('-107,34,-105,36')).toEqual({ ok: true, value: [-107, 34, -105, 36] })
    expect(parseBbox('-107,34,0,-105,36,100')).toEqual({ ok: true, value: [-107, 34, -105, 36] })
    for (const bad of ['1,2,3', 'a,b,c,d', '0,50,1,40', '-181,0,0,1', '0,-91,1,0', '', '1,,2,3'])
      expect(parseBbox(bad).ok, bad).toBe(false)
  })

  it('reads instants, whole days and open intervals', () => {
    const t = Date.parse('2025-03-05T18:00:00Z')
    expect(parseDatetime('2025-03-05T18:00:00Z')).toEqual({ ok: true, value: [t, t] })
    expect(parseDatetime('2025-03-05')).toEqual({
      ok: true,
      value: [Date.parse('2025-03-05T00:00:00Z'), Date.parse('2025-03-06T00:00:00Z') - 1],
    })
    expect(parseDatetime('../2025-03-05T18:00:00Z')).toEqual({ ok: true, value: [-Infinity, t] })
    expect(parseDatetime('2025-03-05T18:00:00Z/')).toEqual({ ok: true, value: [t, Infinity] })
    for (const bad of [
      'yesterday',
      '2025-02-30',
      '2025-13-01',
      '../..',
      '/',
      '2025-03-06/2025-03-05',
      'a/b/c',
    ])
      expect(parseDatetime(bad).ok, bad).toBe(false)
  })
})
