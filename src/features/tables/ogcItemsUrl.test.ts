import { describe, expect, it } from 'vitest'
import { filtersToCql2, ogcItemsUrl } from './ogcItemsUrl'
import type { TableFilter } from './tableFilter'

const f = (over: Partial<TableFilter>): TableFilter => ({
  filterId: 'f1',
  layerId: 'epss',
  tableId: 'epss',
  columnType: 'number',
  field: 'customers',
  value: 10,
  operator: 'gte',
  ...over,
})

describe('ogcItemsUrl', () => {
  it('writes numeric filters as CQL2 comparisons and text filters as LIKE contains, joined by AND', () => {
    expect(
      filtersToCql2([
        f({}),
        f({ operator: 'neq', value: '3' }),
        f({ columnType: 'string', field: 'line_type', value: "O'Neil 50%_x\\", operator: 'contains' }),
      ]),
    ).toBe("customers >= 10 AND customers <> 3 AND line_type LIKE '%O''Neil 50\\%\\_x\\\\%'")
  })

  it('is the bare items URL without filters, and keeps only the table’s own filters', () => {
    expect(ogcItemsUrl('https://e.example', 'buildings', 'buildings', [])).toBe(
      'https://e.example/ogc/collections/buildings/items',
    )
    const url = new URL(
      ogcItemsUrl('https://e.example', 'enhanced_powerline_safety_settings', 'epss', [
        f({}),
        f({ tableId: 'psps' }),
      ]),
    )
    expect(url.pathname).toBe('/ogc/collections/enhanced_powerline_safety_settings/items')
    expect(url.searchParams.get('filter')).toBe('customers >= 10')
    expect(url.searchParams.get('filter-lang')).toBe('cql2-text')
  })
})
