import { MapScreen } from '../map'
import { ForecastPanel } from './ForecastPanel'

/** /DailyWildfireRisk: the map (PSPS and EPSS visible by default) with the forecast chart panel. */
export function DailyWildfireRiskScreen() {
  return <MapScreen panel={<ForecastPanel />} />
}
