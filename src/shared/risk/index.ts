export { riskLabel, type RiskLabelRule } from './riskLabel'
export { findCrossings, type Crossing } from './findCrossings'
export { dayKeyInZone, dayLabel, hourLabel, todayKey, type DayLabelOptions } from './dayLabels'
export { dailyMaxima, type DailyMaximum } from './dailyMaxima'
