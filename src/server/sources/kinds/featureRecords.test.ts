import { describe, expect, it } from 'vitest'
import { arcgisWhere, cql2Filter } from './featureRecords'

describe('our filters in the upstream languages', () => {
  it('ArcGIS where: the source where first, numbers as numbers, text as case-insensitive contains', () => {
    expect(arcgisWhere('1=1', [])).toBe('1=1')
    expect(
      arcgisWhere("status = 'ACTIVE'", [
        { field: 'kv', value: 12, type: 'gte' },
        { field: 'kv', value: 60, type: 'neq' },
        { field: 'name', value: 'pole' },
      ]),
    ).toBe("(status = 'ACTIVE') AND (kv >= 12) AND (kv <> 60) AND (UPPER(name) LIKE '%POLE%' ESCAPE '\\')")
  })

  it('a value never leaves its literal: quotes doubled, wildcards and the escape character escaped', () => {
    expect(arcgisWhere('1=1', [{ field: 'owner', value: "o'neil') OR (1=1" }])).toBe(
      "(1=1) AND (UPPER(owner) LIKE '%O''NEIL'') OR (1=1%' ESCAPE '\\')",
    )
    expect(arcgisWhere('1=1', [{ field: 'code', value: '50%_a\\b' }])).toBe(
      "(1=1) AND (UPPER(code) LIKE '%50\\%\\_A\\\\B%' ESCAPE '\\')",
    )
  })

  it('CQL2 text: quoted property names, the same escapes, AND between filters', () => {
    expect(
      cql2Filter([
        { field: 'customers_out', value: 100, type: 'gt' },
        { field: 'cause', value: "it's 50%" },
      ]),
    ).toBe(`"customers_out" > 100 AND "cause" LIKE '%it''s 50\\%%'`)
  })
})
