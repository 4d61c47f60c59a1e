import { describe, expect, it } from 'vitest'
import { tablesConfig } from '../../shared/config'
import { columnId } from './columnId'

describe('columnId', () => {
  it('is the key, or the id of a column that shows a key twice', () => {
    const hotspots = tablesConfig.tables.find((t) => t.id === 'thermal_hot_spots')
    expect(hotspots?.columns.filter((c) => c.key === 'acquired').map(columnId)).toEqual([
      'acquired',
      'acquired_ago',
    ])
  })

  it('is unique within every configured table', () => {
    for (const table of tablesConfig.tables) {
      const ids = table.columns.map(columnId)
      expect(new Set(ids).size, table.id).toBe(ids.length)
    }
  })
})
