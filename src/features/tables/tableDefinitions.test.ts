import { describe, expect, it } from 'vitest'
import { isFormatterName } from '../../shared/format'
import { tableDefinitions, tableIdForLayer, tablePaging } from './tableDefinitions'

describe('tableDefinitions', () => {
  const tables = tableDefinitions()

  it('reads every configured table with unique column ids and known formatters', () => {
    expect(tables.length).toBeGreaterThanOrEqual(12)
    for (const table of tables) {
      expect(table.tabularDataUrl).toMatch(/^data\/[a-z_]+\/records$/)
      const ids = table.columns.map((c) => c.id)
      expect(new Set(ids).size, table.id).toBe(ids.length)
      for (const c of table.columns)
        if (c.formatter) expect(isFormatterName(c.formatter), c.formatter).toBe(true)
    }
  })

  it('keeps the column details the grid needs', () => {
    const psps = tables.find((t) => t.id === 'psps')
    const gust = psps?.columns.find((c) => c.key === 'forecasted_wind_gust')
    expect(gust).toMatchObject({
      type: 'number',
      filterable: true,
      formatter: 'valueUnit',
      unitField: 'forecasted_wind_gust_unit',
    })
    expect(psps?.columns.find((c) => c.key === 'identifier')?.filterable).toBe(false)
    const hotspots = tables.find((t) => t.id === 'thermal_hot_spots')
    expect(hotspots?.columns.filter((c) => c.key === 'acquired').map((c) => c.id)).toEqual([
      'acquired',
      'acquired_ago',
    ])
    for (const table of tables) {
      for (const c of table.columns) if (c.formatter === 'zoomTo') expect(c.key).toBe('bbox')
    }
  })

  it('maps layers to their tables and reads paging from config', () => {
    expect(tableIdForLayer('historic_fires')).toBe('fire_extent_historic')
    expect(tableIdForLayer('transmission_lines')).toBeUndefined()
    expect(tablePaging()).toEqual({ itemsPerPage: 100, startPage: 1, maxLimit: 1000 })
  })
})
