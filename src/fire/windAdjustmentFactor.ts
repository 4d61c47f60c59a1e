// Wind adjustment factor: 20-ft wind → midflame wind (Albini & Baughman 1979; Finney 1998; Andrews 2012,
// RMRS-GTR-266), as BehavePlus applies it.

/** Canopy over the surface fuel; absent or sparse canopy leaves the fuel unsheltered. */
export interface Canopy {
  readonly coverPercent: number
  readonly heightFt: number
  /** Fraction of the canopy height holding crowns (0–1); without it the crowns are taken as cones (Finney 1998). */
  readonly crownRatioFraction?: number
}

export interface WindAdjustment {
  readonly factor: number
  readonly sheltered: boolean
  /** Fraction of the volume under the canopy top filled with crowns. */
  readonly crownFillFraction: number
}

/** Unsheltered: the log profile above a fuelbed of depth `depthFt` (Albini & Baughman 1979; Andrews 2012 eq. 6). */
export function unshelteredWaf(depthFt: number): number {
  return depthFt > 1e-7 ? 1.83 / Math.log((20 + 0.36 * depthFt) / (0.13 * depthFt)) : 0
}

/**
 * The wind adjustment factor for a fuelbed under an optional canopy. As in BehavePlus, the fuel is
 * sheltered only when the crowns fill at least 5 % of the volume under the canopy top (cover × crown
 * ratio / 3, or cover × π / 12 without a crown ratio) and the canopy is at least 6 ft tall; so a cover
 * of 5 % or less is always unsheltered.
 */
export function windAdjustmentFactor(depthFt: number, canopy?: Canopy): WindAdjustment {
  const cover = (canopy?.coverPercent ?? 0) / 100
  const height = canopy?.heightFt ?? 0
  const fill =
    canopy?.crownRatioFraction !== undefined
      ? (cover * canopy.crownRatioFraction) / 3
      : (cover * Math.PI) / 12
  if (cover < 1e-7 || fill < 0.05 || height < 6)
    return { factor: unshelteredWaf(depthFt), sheltered: false, crownFillFraction: fill }
  const factor = 0.555 / (Math.sqrt(fill * height) * Math.log((20 + 0.36 * height) / (0.13 * height)))
  return { factor, sheltered: true, crownFillFraction: fill }
}
