import { describe, expect, it } from 'vitest'
import type { MitigationFactor } from '../../shared/config'
import { parseWeights } from './mitigationWeights'

const FACTORS: MitigationFactor[] = [
  { id: 'a', field: 'fa', label: 'A', weight: 0.6 },
  { id: 'b', field: 'fb', label: 'B', weight: 0.4 },
]

describe('parseWeights', () => {
  it('uses the config defaults and applies overrides', () => {
    expect(parseWeights({}, FACTORS)).toEqual({ ok: true, weights: { a: 0.6, b: 0.4 } })
    expect(parseWeights({ 'weight.b': '2.5' }, FACTORS)).toEqual({ ok: true, weights: { a: 0.6, b: 2.5 } })
    expect(parseWeights({ 'weight.a': '0', 'weight.b': '1e1' }, FACTORS)).toEqual({
      ok: true,
      weights: { a: 0, b: 10 },
    })
  })

  it.each([
    [{ 'weight.zzz': '1' }, 'weight.zzz', /unknown factor "zzz"/],
    [{ weights: '1' }, 'weights', /unknown parameter/],
    [{ 'weight.a': '-1' }, 'weight.a', /0 or more/],
    [{ 'weight.a': 'abc' }, 'weight.a', /must be a number/],
    [{ 'weight.a': '' }, 'weight.a', /must be a number/],
    [{ 'weight.a': '0x10' }, 'weight.a', /must be a number/],
    [{ 'weight.a': 'Infinity' }, 'weight.a', /must be a number/],
    [{ 'weight.a': '1e400' }, 'weight.a', /must be a number/],
    [{ 'weight.a': ['1', '2'] }, 'weight.a', /once/],
    [{ 'weight.a': '0', 'weight.b': '0' }, 'weight', /at least one weight/],
    [{ 'weight.a': '1e308', 'weight.b': '1e308' }, 'weight.a', /at most 1000000/],
    [{ 'weight.a': ' 5' }, 'weight.a', /must be a number/],
    [{ 'weight.a': '5 ' }, 'weight.a', /must be a number/],
    [{ 'weight.a': '+5' }, 'weight.a', /must be a number/],
    [{ 'weight.a': '-Infinity' }, 'weight.a', /must be a number/],
  ])('refuses %j (parameter %s)', (query, parameter, message) => {
    const r = parseWeights(query, FACTORS)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.parameter).toBe(parameter)
      expect(r.message).toMatch(message)
    }
  })

  it('does not treat inherited object keys as factors', () => {
    expect(parseWeights({ 'weight.constructor': '1' }, FACTORS)).toMatchObject({ ok: false })
  })
})
