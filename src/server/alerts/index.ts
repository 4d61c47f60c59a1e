export { AlertsEngine, type AlertsEvaluation } from './AlertsEngine'
export type { Alert, AlertAsset } from './alertTypes'
