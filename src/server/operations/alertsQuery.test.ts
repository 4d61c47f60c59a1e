import { describe, expect, it } from 'vitest'
import { parseAlertsQuery } from './alertsQuery'

const rules = ['fire-near-line', 'red-flag']
const severities = ['critical', 'warning']
const parse = (q: Record<string, unknown>) => parseAlertsQuery(q, rules, severities)

describe('parseAlertsQuery', () => {
  it('accepts no filters', () => {
    expect(parse({})).toEqual({ ok: true, query: { rules: null, severities: null, acknowledged: null } })
  })

  it('reads repeated parameters and comma lists alike', () => {
    const repeated = parse({ rule: ['fire-near-line', 'red-flag'], severity: 'warning' })
    const comma = parse({ rule: 'fire-near-line, red-flag', severity: 'warning' })
    expect(repeated).toEqual(comma)
    expect(repeated.ok && [...(repeated.query.rules ?? [])]).toEqual(['fire-near-line', 'red-flag'])
    expect(parse({ rule: '' })).toMatchObject({ ok: true, query: { rules: null } })
  })

  it('reads acknowledged as true or false only', () => {
    expect(parse({ acknowledged: 'true' })).toMatchObject({ ok: true, query: { acknowledged: true } })
    expect(parse({ acknowledged: 'false' })).toMatchObject({ ok: true, query: { acknowledged: false } })
    expect(parse({ acknowledged: 'yes' })).toMatchObject({ ok: false, parameter: 'acknowledged' })
    expect(parse({ acknowledged: ['true', 'false'] })).toMatchObject({ ok: false, parameter: 'acknowledged' })
  })

  it('names the parameter of an unknown id or an unknown parameter', () => {
    expect(parse({ rule: 'red-flag,nope' })).toMatchObject({ ok: false, parameter: 'rule' })
    expect(parse({ severity: 'CRITICAL' })).toMatchObject({ ok: false, parameter: 'severity' })
    expect(parse({ limit: '5' })).toMatchObject({ ok: false, parameter: 'limit' })
  })
})
