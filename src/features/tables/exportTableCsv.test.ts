import { describe, expect, it } from 'vitest'
import { fetchAllRecords, recordsToCsv } from './exportTableCsv'
import type { TableDefinition } from '../../shared/config'
import type { TableFilter } from './tableFilter'
import { toCsv } from './toCsv'

const table: TableDefinition = {
  id: 'fires',
  name: 'Fires',
  layer: 'fires',
  dataset: 'fires',
  tabularDataUrl: 'data/fires/records',
  columns: [
    { key: 'bbox', label: 'Map', type: 'string', filterable: false, formatter: 'zoomTo' },
    { key: 'name', label: 'Name', type: 'string', filterable: true },
    { key: 'acres', label: 'Acres', type: 'number', filterable: true, formatter: 'sigfig3' },
    { key: 'acres', id: 'acres_again', label: 'Acres again', type: 'number', filterable: false },
  ],
}

describe('fetchAllRecords', () => {
  it('pages through the API with the filters until the total is reached', async () => {
    const data = Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, acres: i }))
    const urls: string[] = []
    const filters: TableFilter[] = [
      {
        filterId: 'x',
        tableId: 'fires',
        layerId: 'fires',
        columnType: 'number',
        field: 'acres',
        value: 0,
        operator: 'gte',
      },
    ]
    const all = await fetchAllRecords(table, filters, 10, async (url) => {
      urls.push(url)
      const q = new URL(url, 'http://x').searchParams
      const offset = Number(q.get('offset'))
      return { records: data.slice(offset, offset + Number(q.get('limit'))), total: data.length }
    })
    expect(all).toEqual(data)
    expect(urls.map((u) => new URL(u, 'http://x').searchParams.get('offset'))).toEqual(['0', '10', '20'])
    for (const u of urls) {
      expect(new URL(u, 'http://x').searchParams.getAll('filters')).toEqual([
        '{"field":"acres","value":0,"type":"gte"}',
      ])
      expect(new URL(u, 'http://x').searchParams.get('limit')).toBe('10')
    }
  })

  it('stops on a short page even if the total says more', async () => {
    let calls = 0
    const all = await fetchAllRecords(table, [], 10, async () => {
      calls++
      return { records: [{ name: 'only' }], total: 99 }
    })
    expect(all).toHaveLength(1)
    expect(calls).toBe(1)
  })
})

describe('recordsToCsv', () => {
  it('writes one column per field key with raw, quoted values', () => {
    const csv = recordsToCsv(table, [
      { bbox: [-106.1, 35, -106, 35.2], name: 'Pine, "North"', acres: 1234.567 },
      { name: 'Oak', acres: null },
    ])
    expect(csv).toBe('bbox,name,acres\r\n"-106.1, 35, -106, 35.2","Pine, ""North""",1234.567\r\n,Oak,\r\n')
  })
})

describe('toCsv', () => {
  it('quotes line breaks', () => {
    expect(toCsv(['a'], [['x\ny']])).toBe('a\r\n"x\ny"\r\n')
  })
})
