/** Room left of the plot for the y-axis title and its labels, in px (ApexCharts' default layout). */
export const Y_AXIS_ROOM_PX = 64
/** Least free space kept between two drawn x labels, in px. */
export const X_LABEL_GAP_PX = 12

/**
 * Indices of the category labels ApexCharts draws for a `tickAmount` (its rule for a category
 * axis with a tick amount: every round(n / (ticks + 1))-th label from the first).
 */
export function drawnLabelIndices(labelCount: number, tickAmount: number): number[] {
  if (tickAmount > labelCount) return Array.from({ length: labelCount }, (_, i) => i)
  const step = Math.round(labelCount / (tickAmount + 1))
  if (step < 1) return []
  const indices: number[] = []
  for (let i = 0; i < labelCount; i += step) indices.push(i)
  return indices
}

/** How wide the chart is drawn and how wide its widest x label is, both in px. */
export interface XLabelFit {
  readonly chartWidth: number
  readonly widestLabel: number
}

/**
 * The x-axis `tickAmount` for ApexCharts: the most ticks that draw at most `maxLabels` labels
 * (spec §9: at most 8) and, when the chart's width is known, keep the widest label clear of its
 * neighbours — so a phone draws three hour labels where a desktop draws eight. 0 draws the
 * first label only (a chart too narrow for two).
 */
export function xTickAmount(labelCount: number, maxLabels: number, fit?: XLabelFit): number {
  // The plot starts right of the y axis and ends half a label short of the chart's edge.
  const plotWidth = fit ? fit.chartWidth - Y_AXIS_ROOM_PX - fit.widestLabel / 2 : 0
  const perPoint = labelCount > 1 ? plotWidth / (labelCount - 1) : 0
  for (let ticks = Math.max(0, maxLabels - 1); ticks > 0; ticks -= 1) {
    const drawn = drawnLabelIndices(labelCount, ticks)
    if (drawn.length === 0 || drawn.length > maxLabels) continue
    const step = drawn.length > 1 ? (drawn[1] ?? 0) - (drawn[0] ?? 0) : labelCount
    if (!fit || step * perPoint >= fit.widestLabel + X_LABEL_GAP_PX) return ticks
  }
  return 0
}
