import { describe, expect, it } from 'vitest'
import { operationsViews } from './operationsViews'

describe('operationsViews', () => {
  it('lists the four views with their configured titles and marks the current one, case-insensitively', () => {
    const views = operationsViews('/planningmode/')
    expect(views.map((v) => v.title)).toEqual(['Alerts', 'PSPS', 'Planning Mode', 'Mitigation Analysis'])
    expect(views.filter((v) => v.current).map((v) => v.path)).toEqual(['/PlanningMode'])
  })

  it('marks none on another route', () => {
    expect(operationsViews('/DailyWildfireRisk').some((v) => v.current)).toBe(false)
  })
})
