// Operations views (issue 10): each is the map screen with a route-specific panel.
export { AlertsScreen } from './alerts/AlertsScreen'
export { PspsScreen } from './psps/PspsScreen'
export { PlanningModeScreen } from './planning/PlanningModeScreen'
export { MitigationAnalysisScreen } from './mitigation/MitigationAnalysisScreen'
