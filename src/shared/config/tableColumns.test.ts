import { describe, expect, it } from 'vitest'
import { getLayer, getTable } from './catalogueLookups'
import { columnId, tableForLayer } from './tableColumns'

describe('table helpers', () => {
  it('uses the column id when given, else the key', () => {
    const columns = getTable('thermal_hot_spots')?.columns ?? []
    const ids = columns.map(columnId)
    expect(ids).toContain('acquired')
    expect(ids).toContain('acquired_ago')
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('finds a layer table and none for a table-less layer', () => {
    const psps = getLayer('psps')
    const slope = getLayer('terrain_slope')
    expect(psps && tableForLayer(psps)?.id).toBe('psps')
    expect(slope && tableForLayer(slope)).toBeUndefined()
  })
})
