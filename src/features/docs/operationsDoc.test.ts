import { describe, expect, it } from 'vitest'
import { layersConfig, operationsConfig, type OperationsConfig } from '../../shared/config'
import { buildOperationsDoc } from './operationsDoc'

describe('buildOperationsDoc', () => {
  it('describes every configured alert rule with dataset titles, distance and conditions', () => {
    const doc = buildOperationsDoc()
    expect(doc.rules.map((r) => r.id)).toEqual(operationsConfig.alerts.rules.map((r) => r.id))
    const fire = doc.rules.find((r) => r.id === 'active-fire-near-transmission')
    expect(fire).toMatchObject({
      hazard: 'Active fire perimeters',
      asset: 'Transmission lines',
      distance: 'within 5 mi',
      severity: 'Critical',
      conditions: ['percent_contained < 100'],
    })
    const hotspot = doc.rules.find((r) => r.id === 'young-hotspot-near-distribution')
    expect(hotspot?.conditions).toEqual(['hazard younger than 12 h'])
    expect(doc.rules.find((r) => r.id === 'forecast-extent-over-line')?.distance).toBe(
      'touching or intersecting',
    )
  })

  it('leaves out the views a config does not configure', () => {
    const ops: OperationsConfig = { alerts: { severities: operationsConfig.alerts.severities, rules: [] } }
    const doc = buildOperationsDoc(ops, layersConfig)
    expect(doc).toMatchObject({ rules: [], psps: null, planning: null, mitigation: null })
  })

  it('lists the PSPS totals and the mitigation weights from config', () => {
    const doc = buildOperationsDoc()
    expect(doc.psps?.totals).toEqual([
      'Customers Impacted',
      'Medical Certificates',
      'Critical Infrastructure',
    ])
    expect(doc.mitigation?.factors.map((f) => f.weight)).toEqual(
      operationsConfig.mitigation?.consequence.map((c) => c.weight),
    )
    expect(doc.planning?.grid).toBe('Wind gust (next PSPS window)')
  })
})
