export { AlertsEngine, type AlertsEvaluation, type EvaluationListener } from './AlertsEngine'
export type { Alert, AlertAsset } from './alertTypes'
