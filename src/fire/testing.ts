// Shared helpers of the fire-core tests; the published cases' inputs are in publishedCases.ts.
import { expect } from 'vitest'
import { FT_PER_MIN_PER_CH_PER_H } from './units'

export { BEHAVEPLUS_GR2_MOISTURE, GS4_LOW_MOISTURE, GS4_SCENARIO, model } from './publishedCases'

export const chPerH = (ftPerMin: number): number => ftPerMin / FT_PER_MIN_PER_CH_PER_H

/** Within `tolerance` (relative; 0.5 % unless told) of a published value. */
export function expectClose(observed: number, published: number, tolerance = 0.005): void {
  if (published === 0) expect(Math.abs(observed)).toBeLessThan(1e-9)
  else expect(Math.abs(observed - published) / Math.abs(published)).toBeLessThanOrEqual(tolerance)
}
