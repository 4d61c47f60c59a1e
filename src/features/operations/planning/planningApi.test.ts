import { describe, expect, it } from 'vitest'
import { hourFromSearch, planningQuery, searchWithHour } from './planningApi'

describe('planning query helpers', () => {
  it('builds hour and threshold.<key> parameters (keys encoded)', () => {
    expect(planningQuery(null, {})).toBe('')
    expect(planningQuery(4, { 'NM-12': 38.5, 'A B': 50 })).toBe(
      '?hour=4&threshold.NM-12=38.5&threshold.A+B=50',
    )
  })

  it('reads and writes the shared hour, keeping the map parameters', () => {
    expect(hourFromSearch('?c=1,2&hour=7', 18)).toBe(7)
    expect(hourFromSearch('?hour=18', 18)).toBeNull()
    expect(hourFromSearch('?hour=x', 18)).toBeNull()
    expect(searchWithHour('?c=-106.1,35.2&layers=psps,epss&hour=1', 5)).toBe(
      '?c=-106.1,35.2&layers=psps,epss&hour=5',
    )
  })
})
