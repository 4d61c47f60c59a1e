import { describe, expect, it } from 'vitest'
import { drawnLabelIndices, xTickAmount } from './xAxisTicks'

// 'Mar 5, 12 AM' is about 72 px in 12 px Helvetica; 72 hourly labels as the demo series has.
const hourly = { count: 72, widest: 72 }

/** Free px between two neighbouring drawn labels on a chart `width` px wide. */
function gapBetweenLabels(width: number, ticks: number): number {
  const drawn = drawnLabelIndices(hourly.count, ticks)
  const plot = width - 64 - hourly.widest / 2
  const step = (drawn[1] ?? hourly.count) - (drawn[0] ?? 0)
  return (step * plot) / (hourly.count - 1) - hourly.widest
}

describe('drawnLabelIndices (ApexCharts category tick rule)', () => {
  it('draws every round(n / (ticks + 1))-th label from the first', () => {
    expect(drawnLabelIndices(72, 7)).toEqual([0, 9, 18, 27, 36, 45, 54, 63])
    expect(drawnLabelIndices(72, 2)).toEqual([0, 24, 48])
    expect(drawnLabelIndices(5, 7)).toEqual([0, 1, 2, 3, 4])
  })
})

describe('xTickAmount', () => {
  it('draws at most the configured 8 labels when the width is unknown', () => {
    expect(drawnLabelIndices(72, xTickAmount(72, 8))).toHaveLength(8)
    // 9 points: 8 ticks would be 9 labels; the next count that holds draws 5.
    expect(drawnLabelIndices(9, xTickAmount(9, 8)).length).toBeLessThanOrEqual(8)
    expect(drawnLabelIndices(3, xTickAmount(3, 8))).toEqual([0, 1, 2])
  })

  it('keeps eight labels on a wide chart', () => {
    const ticks = xTickAmount(hourly.count, 8, { chartWidth: 1100, widestLabel: hourly.widest })
    expect(drawnLabelIndices(hourly.count, ticks)).toHaveLength(8)
  })

  it('draws fewer labels, clear of each other, on a phone-wide chart', () => {
    const ticks = xTickAmount(hourly.count, 8, { chartWidth: 366, widestLabel: hourly.widest })
    expect(drawnLabelIndices(hourly.count, ticks)).toEqual([0, 24, 48])
    expect(gapBetweenLabels(366, ticks)).toBeGreaterThanOrEqual(12)
  })

  it('leaves room between labels at every width from 200 to 1600 px', () => {
    for (let width = 200; width <= 1600; width += 10) {
      const ticks = xTickAmount(hourly.count, 8, { chartWidth: width, widestLabel: hourly.widest })
      if (drawnLabelIndices(hourly.count, ticks).length > 1)
        expect(gapBetweenLabels(width, ticks)).toBeGreaterThanOrEqual(12)
    }
  })

  it('draws the first label only when two cannot fit', () => {
    expect(xTickAmount(hourly.count, 8, { chartWidth: 120, widestLabel: hourly.widest })).toBe(0)
    expect(drawnLabelIndices(hourly.count, 0)).toEqual([0])
  })
})
