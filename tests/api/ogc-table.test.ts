import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ogcItemsUrl } from '../../src/features/tables/ogcItemsUrl'
import { exportUrl } from '../../src/features/tables/exportGisFile'
import { recordsUrl } from '../../src/features/tables/recordsRequest'
import { tablesConfig } from '../../src/shared/config'
import type { TableFilter } from '../../src/features/tables/tableFilter'
import { AUTH, seededApp, type TestApp } from './testApp'

// The attribute table's "Copy OGC URL" and "Export GIS" URLs, sent to the server: the OGC items
// URL and the export match exactly the rows the table shows for the same filters.
let t: TestApp

beforeAll(async () => {
  t = await seededApp({ buildings: 300 })
}, 120_000)

afterAll(async () => {
  await t.close()
})

const epss = tablesConfig.tables.find((d) => d.id === 'epss')
const ci = tablesConfig.tables.find((d) => d.id === 'critical_infrastructure')

function filter(tableId: string, over: Partial<TableFilter>): TableFilter {
  return {
    filterId: Math.random().toString(36),
    layerId: tableId,
    tableId,
    columnType: 'number',
    field: 'customers',
    value: 0,
    operator: 'gte',
    ...over,
  }
}

async function json<T>(url: string): Promise<T> {
  const res = await t.app.inject({ url, headers: AUTH })
  expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(200)
  return res.json() as T
}

describe('table URLs for GIS clients', () => {
  it.each([
    [
      'numeric comparisons',
      'epss',
      [
        filter('epss', { value: 100 }),
        filter('epss', { field: 'critical_infrastructure', operator: 'lt', value: 6 }),
      ],
    ],
    [
      'a text contains',
      'critical_infrastructure',
      [
        filter('critical_infrastructure', {
          columnType: 'string',
          field: 'type',
          operator: 'contains',
          value: 'STAT',
        }),
      ],
    ],
    [
      'a quote and wildcard characters',
      'critical_infrastructure',
      [
        filter('critical_infrastructure', {
          columnType: 'string',
          field: 'name',
          operator: 'contains',
          value: "o'_%",
        }),
      ],
    ],
    ['no filter', 'epss', []],
  ])(
    'the copied OGC URL (%s) matches the records total, and the export holds those rows',
    async (_label, tableId, filters) => {
      const def = tableId === 'epss' ? epss : ci
      if (!def) throw new Error('table missing from config')
      const records = await json<{ total: number; records: { id: number }[] }>(
        recordsUrl(def, filters, 1000, 0),
      )
      const url = new URL(ogcItemsUrl('http://localhost', def.dataset ?? '', def.id, filters))
      const items = await json<{ numberMatched: number; features: { id: number }[] }>(
        `${url.pathname}${url.search}${url.search ? '&' : '?'}limit=1000`,
      )
      expect(items.numberMatched).toBe(records.total)
      expect(items.features.map((x) => x.id)).toEqual(records.records.map((r) => r.id))
      const exported = await json<{ features: { id: number }[] }>(
        exportUrl(def.dataset ?? '', def.id, filters, 'geojson'),
      )
      expect(exported.features.map((x) => x.id)).toEqual(records.records.map((r) => r.id))
    },
  )

  it('the first case is not trivially everything', async () => {
    if (!epss) throw new Error('table missing from config')
    const all = await json<{ total: number }>(recordsUrl(epss, [], 1, 0))
    const some = await json<{ total: number }>(recordsUrl(epss, [filter('epss', { value: 100 })], 1, 0))
    expect(some.total).toBeGreaterThan(0)
    expect(some.total).toBeLessThan(all.total)
  })
})
