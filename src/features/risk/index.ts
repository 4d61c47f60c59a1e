export { DailyWildfireRiskScreen } from './DailyWildfireRiskScreen'
export { ForecastPanel } from './ForecastPanel'
export { fetchPSPSRiskScore } from './riskScoreStore'
