import { describe, expect, it } from 'vitest'
import type { AlertCondition, AlertRuleSide } from '../../shared/config'
import { featureTime, passesCondition, passesSide } from './conditions'

const props = { acres: 120, name: 'Coyote Canyon Fire', seen: '2025-03-05T12:00:00Z', none: null }
const c = (field: string, op: AlertCondition['op'], value: number | string): AlertCondition => ({
  field,
  op,
  value,
})

describe('passesCondition', () => {
  it('compares numbers with every numeric operator', () => {
    const cases: [AlertCondition['op'], number, boolean][] = [
      ['eq', 120, true],
      ['eq', 121, false],
      ['neq', 121, true],
      ['neq', 120, false],
      ['gt', 119, true],
      ['gt', 120, false],
      ['gte', 120, true],
      ['gte', 121, false],
      ['lt', 121, true],
      ['lt', 120, false],
      ['lte', 120, true],
      ['lte', 119, false],
    ]
    for (const [op, value, expected] of cases)
      expect(passesCondition(props, c('acres', op, value)), `${op} ${value}`).toBe(expected)
  })

  it('compares strings case-insensitively with eq, neq and contains', () => {
    expect(passesCondition(props, c('name', 'eq', 'coyote canyon FIRE'))).toBe(true)
    expect(passesCondition(props, c('name', 'eq', 'Coyote'))).toBe(false)
    expect(passesCondition(props, c('name', 'neq', 'COYOTE CANYON FIRE'))).toBe(false)
    expect(passesCondition(props, c('name', 'neq', 'Manzano Fire'))).toBe(true)
    expect(passesCondition(props, c('name', 'contains', 'CANYON'))).toBe(true)
    expect(passesCondition(props, c('name', 'contains', 'mesa'))).toBe(false)
    expect(passesCondition(props, c('name', 'gt', 'A'))).toBe(false)
  })

  it('fails on a missing value or a value of the other kind (even neq)', () => {
    expect(passesCondition(props, c('none', 'neq', 5))).toBe(false)
    expect(passesCondition(props, c('missing', 'neq', 'x'))).toBe(false)
    expect(passesCondition(props, c('acres', 'eq', '120'))).toBe(false)
    expect(passesCondition(props, c('name', 'contains', 5))).toBe(false)
  })
})

describe('passesSide', () => {
  const now = Date.parse('2025-03-05T19:00:00Z')
  const side = (extra: Partial<AlertRuleSide>): AlertRuleSide => ({ dataset: 'd', label: 'name', ...extra })

  it('needs every where condition', () => {
    const where = [c('acres', 'gt', 100), c('name', 'contains', 'canyon')]
    expect(passesSide(props, side({ where }), now)).toBe(true)
    expect(passesSide(props, side({ where: [...where, c('acres', 'lt', 50)] }), now)).toBe(false)
  })

  it('keeps features younger than maxAgeHours and drops older or undated ones', () => {
    const aged = side({ time: 'seen', maxAgeHours: 12 })
    expect(passesSide({ seen: '2025-03-05T08:00:00Z' }, aged, now)).toBe(true)
    expect(passesSide({ seen: '2025-03-05T07:00:00Z' }, aged, now)).toBe(true)
    expect(passesSide({ seen: '2025-03-05T06:59:00Z' }, aged, now)).toBe(false)
    expect(passesSide({ seen: null }, aged, now)).toBe(false)
    expect(passesSide({}, aged, now)).toBe(false)
    expect(passesSide({ seen: 'yesterday' }, aged, now)).toBe(false)
    expect(passesSide({ seen: '2025-03-05T20:00:00Z' }, aged, now)).toBe(true)
  })

  it('reads the time field as an instant', () => {
    expect(featureTime(props, 'seen')).toBe(Date.parse('2025-03-05T12:00:00Z'))
    expect(featureTime(props, undefined)).toBeNull()
    expect(featureTime(props, 'name')).toBeNull()
  })
})
