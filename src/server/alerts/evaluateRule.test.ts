import { describe, expect, it } from 'vitest'
import type { AlertRule } from '../../shared/config'
import { dataset, line, point, square } from './alertFixtures'
import { evaluateRule, labelOf } from './evaluateRule'
import type { Shape } from './groundDistance'

const NOW = Date.parse('2025-03-05T19:00:00Z')

function rule(distanceMiles: number, extra: Partial<AlertRule> = {}): AlertRule {
  return {
    id: 'r',
    title: 'Rule',
    severity: 'warning',
    distanceMiles,
    hazard: { dataset: 'hazards', label: 'name' },
    asset: { dataset: 'assets', label: 'name' },
    ...extra,
  }
}

/** Alerts for one hazard shape against asset shapes (labels h, a1, a2, ...). */
function alertsFor(r: AlertRule, hazard: Shape, ...assets: Shape[]) {
  const h = dataset('hazards', [{ shape: hazard, properties: { name: 'h' }, key: 'H-1' }])
  const a = dataset(
    'assets',
    assets.map((shape, i) => ({ shape, properties: { name: `a${i + 1}` } })),
  )
  return evaluateRule(r, h, a, NOW)
}

describe('evaluateRule — distances', () => {
  const cases: [string, (d: number) => Shape, Shape][] = [
    ['point–line', (d) => point(0, d), line([-3, 0], [3, 0])],
    ['polygon–line', (d) => square(-1, d, 1, d + 2), line([-3, 0], [3, 0])],
    ['polygon–point', (d) => square(-1, d, 1, d + 2), point(0, 0)],
    ['polygon–polygon', (d) => square(-1, d, 1, d + 2), square(-2, -2, 2, 0)],
  ]
  for (const [name, hazardAt, asset] of cases) {
    it(`${name}: inside, at and beyond 2 miles`, () => {
      expect(alertsFor(rule(2), hazardAt(1.5), asset)).toHaveLength(1)
      expect(alertsFor(rule(2), hazardAt(2), asset)[0]?.nearestMiles).toBeCloseTo(2, 6)
      expect(alertsFor(rule(2), hazardAt(2.01), asset)).toHaveLength(0)
    })
  }

  it('distance 0: intersecting or containing raises, a near miss does not', () => {
    const poly = square(-1, -1, 1, 1)
    expect(alertsFor(rule(0), poly, line([-3, 0], [3, 0]))).toHaveLength(1)
    expect(alertsFor(rule(0), poly, point(0.2, 0.3))[0]?.nearestMiles).toBe(0)
    expect(alertsFor(rule(0), poly, square(0.5, 0.5, 3, 3))).toHaveLength(1)
    expect(alertsFor(rule(0), poly, square(1, -1, 3, 1))).toHaveLength(1)
    expect(alertsFor(rule(0), poly, line([-3, 1.01], [3, 1.01]))).toHaveLength(0)
    expect(alertsFor(rule(0), poly, point(1.01, 0))).toHaveLength(0)
  })
})

describe('evaluateRule — the alert', () => {
  it('lists the assets within reach nearest first, with id, time and bbox', () => {
    const [alert, ...rest] = alertsFor(rule(2), point(0, 0), point(0, 1.5), point(0, -0.5), point(0, 3))
    expect(rest).toHaveLength(0)
    expect(alert).toMatchObject({
      id: 'r:H-1',
      ruleId: 'r',
      ruleTitle: 'Rule',
      severity: 'warning',
      hazard: { dataset: 'hazards', id: 1, label: 'h', time: null },
      time: new Date(NOW).toISOString(),
    })
    expect(alert?.assets.map((a) => [a.label, a.dataset, a.id])).toEqual([
      ['a2', 'assets', 2],
      ['a1', 'assets', 1],
    ])
    expect(alert?.assets[0]?.distanceMiles).toBeCloseTo(0.5, 3)
    expect(alert?.nearestMiles).toBe(alert?.assets[0]?.distanceMiles)
    const [w, s, e, n] = alert?.bbox ?? []
    expect(w).toBe(e)
    expect(s).toBeCloseTo(point(0, -0.5).bbox[1], 12)
    expect(n).toBeCloseTo(point(0, 1.5).bbox[3], 12)
  })

  it('takes the time from the hazard time field', () => {
    const h = dataset('hazards', [
      { shape: point(0, 0), properties: { name: 'h', at: '2025-03-05T10:00:00Z' } },
    ])
    const a = dataset('assets', [{ shape: point(0, 1), properties: { name: 'a' } }])
    const r = rule(2, { hazard: { dataset: 'hazards', label: 'name', time: 'at' } })
    const [alert] = evaluateRule(r, h, a, NOW)
    expect(alert?.time).toBe('2025-03-05T10:00:00.000Z')
    expect(alert?.hazard.time).toBe('2025-03-05T10:00:00.000Z')
  })

  it('applies the conditions and age limit of each side', () => {
    const h = dataset('hazards', [
      { shape: point(0, 0), properties: { name: 'young', at: '2025-03-05T18:00:00Z' } },
      { shape: point(0.1, 0), properties: { name: 'old', at: '2025-03-04T18:00:00Z' } },
      { shape: point(0.2, 0), properties: { name: 'undated', at: null } },
    ])
    const a = dataset('assets', [
      { shape: point(0, 1), properties: { name: 'small', kv: 12 } },
      { shape: point(0, 1.2), properties: { name: 'big', kv: 230 } },
    ])
    const r = rule(2, {
      hazard: { dataset: 'hazards', label: 'name', time: 'at', maxAgeHours: 12 },
      asset: { dataset: 'assets', label: 'name', where: [{ field: 'kv', op: 'gte', value: 115 }] },
    })
    const alerts = evaluateRule(r, h, a, NOW)
    expect(alerts.map((x) => x.hazard.label)).toEqual(['young'])
    expect(alerts[0]?.assets.map((x) => x.label)).toEqual(['big'])
  })
})

describe('labelOf', () => {
  const feature = (properties: Record<string, string | number | null>) => ({
    id: 7,
    key: 'feature-7',
    properties,
    shape: point(0, 0),
  })

  it('fills the label template from the feature, else uses the label field, else the key', () => {
    const side = { dataset: 'd', label: 'name', labelTemplate: '{name} ({percentile}th percentile)' }
    expect(labelOf(feature({ name: 'Bosque Fire', percentile: 90 }), side)).toBe(
      'Bosque Fire (90th percentile)',
    )
    expect(labelOf(feature({ name: 'Bosque Fire', percentile: null }), side)).toBe('Bosque Fire')
    expect(labelOf(feature({ name: '' }), { dataset: 'd', label: 'name' })).toBe('feature-7')
  })
})
