// Unit conversions used by the fire-behaviour core. The core computes in the units of the published
// equations (Rothermel 1972: ft, min, lb, BTU) and converts only at its edges.

/** 1 chain per hour = 66 ft / 60 min. */
export const FT_PER_MIN_PER_CH_PER_H = 66 / 60
/** 1 mile per hour = 5280 ft / 60 min. */
export const FT_PER_MIN_PER_MPH = 88
/** 1 short ton per acre = 2000 lb / 43,560 ft². */
export const LB_PER_FT2_PER_TON_PER_ACRE = 2000 / 43560
export const FT_PER_M = 1 / 0.3048
/** 1 lb/ft³ = 0.45359237 kg / 0.3048³ m³. */
export const KG_PER_M3_PER_LB_PER_FT3 = 0.45359237 / 0.3048 ** 3
/** 1 kW/m = 1 kJ/s/m; 1 BTU = 1.05505585 kJ; 1 ft = 0.3048 m. */
export const BTU_PER_FT_PER_S_PER_KW_PER_M = 0.3048 / 1.05505585

export const degToRad = (deg: number): number => (deg * Math.PI) / 180
export const radToDeg = (rad: number): number => (rad * 180) / Math.PI

/** An angle folded into [0, 360). */
export function normalizeDeg(deg: number): number {
  const d = deg % 360
  return d < 0 ? d + 360 : d
}

/** Slope steepness in percent (rise over run × 100) from degrees. */
export const slopePercentFromDeg = (deg: number): number => Math.tan(degToRad(deg)) * 100
