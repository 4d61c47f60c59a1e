import { describe, expect, it } from 'vitest'
import { decodeFilter, encodeFilter, recordsQueryString } from './filters'

describe('filter codec', () => {
  it('round-trips numeric filters with their operator and text filters without one', () => {
    const numeric = { field: 'customers', value: 10, type: 'gte' as const }
    expect(decodeFilter(encodeFilter(numeric))).toEqual({ ok: true, filter: numeric })
    expect(encodeFilter({ field: 'name', value: 'mesa' })).toBe('{"field":"name","value":"mesa"}')
  })

  it('builds the repeated filters query string with limit and offset', () => {
    const qs = recordsQueryString(
      [
        { field: 'a', value: 'x' },
        { field: 'b', value: 2, type: 'lt' },
      ],
      100,
      200,
    )
    const params = new URLSearchParams(qs)
    expect(params.getAll('filters')).toEqual([
      '{"field":"a","value":"x"}',
      '{"field":"b","value":2,"type":"lt"}',
    ])
    expect(params.get('limit')).toBe('100')
    expect(params.get('offset')).toBe('200')
  })

  it('rejects malformed JSON, non-objects, missing fields, bad values and unknown operators', () => {
    for (const raw of [
      '{',
      '[1]',
      '"x"',
      '{"value":1}',
      '{"field":"a"}',
      '{"field":"a","value":{}}',
      '{"field":"a","value":1,"type":"like"}',
    ]) {
      expect(decodeFilter(raw).ok, raw).toBe(false)
    }
  })
})
