import { describe, expect, it } from 'vitest'
import type { FireWhatIfResult } from '../../shared/fireSim/wireTypes'
import { hourLabels, isochroneColor } from './isochroneStyle'

describe('isochrone style', () => {
  it('grades the hours from the palest to the deepest colour', () => {
    expect(isochroneColor(1, 6)).toBe('#ffe680')
    expect(isochroneColor(6, 6)).toBe('#7f0a1a')
    const six = [1, 2, 3, 4, 5, 6].map((h) => isochroneColor(h, 6))
    expect(new Set(six).size).toBe(6)
  })

  it('labels each hour at its head, farthest from the ignition', () => {
    const square = (e: number) => [
      [
        [0, -0.001],
        [e, -0.001],
        [e, 0.001],
        [0, 0.001],
        [0, -0.001],
      ],
    ]
    const result = {
      point: [0, 0],
      isochrones: {
        type: 'FeatureCollection',
        features: [1, 2].map((hour) => ({
          type: 'Feature',
          properties: { hour },
          geometry: { type: 'MultiPolygon', coordinates: [square(0.01 * hour)] },
        })),
      },
    } as unknown as FireWhatIfResult
    const labels = hourLabels(result, 'x')
    expect(labels.map((l) => l.text)).toEqual(['1 h', '2 h'])
    expect(labels[0]!.lonLat[0]).toBeCloseTo(0.01)
    expect(labels[1]!.lonLat[0]).toBeCloseTo(0.02)
  })
})
