import {
  operationsConfig,
  type PspsEventSettings,
  type PspsReportSettings,
  type PspsRollupSettings,
} from '../../shared/config'

/** The PSPS events' settings: the roll-up, the events and the report (config/operations.yaml). */
export interface PspsEventsConfig {
  rollup: PspsRollupSettings
  events: PspsEventSettings
  report: PspsReportSettings
}

/** The settings config/operations.yaml gives, or null when any of its three sections is missing. */
export function defaultConfig(): PspsEventsConfig | null {
  const { psps, pspsEvents, pspsReport } = operationsConfig
  return psps && pspsEvents && pspsReport ? { rollup: psps, events: pspsEvents, report: pspsReport } : null
}
