/**
 * The smoke weather-service config: `{ modelRuns, inventory }`. The browser takes the LAST model
 * run and the FIRST inventory entry and fills the entry's `tileUrl` template.
 */
export interface SmokeModelRun {
  /** Run id, used as `{run}` in tile URLs. */
  id: string
  /** When the run starts (valid time of forecast hour 0), ISO 8601. */
  refTime: string
  forecastHours: number
}

export interface SmokeInventoryEntry {
  layer: string
  title: string
  unit: string
  /** Legend id in layers.yaml whose stops colour the tiles. */
  legend: string
  /** URL template with `{run}`, `{hour}`, `{z}`, `{x}`, `{y}`. */
  tileUrl: string
  hours: number[]
  validTimes: string[]
  /** The hour a client should show first (the current hour of the window). */
  defaultHour: number
  minzoom: number
  maxzoom: number
}

export interface SmokeServiceConfig {
  modelRuns: SmokeModelRun[]
  inventory: SmokeInventoryEntry[]
}

export interface SmokeServiceInput {
  runId: string
  validTimes: string[]
  defaultHour: number
  tilePath: string
  legend: string
  title: string
  unit: string
  minzoom: number
  maxzoom: number
}

/** Run ids look like `2025030513` (UTC year, month, day, hour of the run start). */
export function runIdOf(refTime: string): string {
  return refTime.slice(0, 13).replace(/[-T:]/g, '')
}

export function smokeServiceConfig(i: SmokeServiceInput): SmokeServiceConfig {
  const refTime = i.validTimes[0] ?? new Date(0).toISOString()
  return {
    modelRuns: [{ id: i.runId, refTime, forecastHours: i.validTimes.length }],
    inventory: [
      {
        layer: 'smoke',
        title: i.title,
        unit: i.unit,
        legend: i.legend,
        tileUrl: `/api/tiles/${i.tilePath}/png/{z}/{x}/{y}?run={run}&hour={hour}`,
        hours: i.validTimes.map((_, h) => h),
        validTimes: i.validTimes,
        defaultHour: i.defaultHour,
        minzoom: i.minzoom,
        maxzoom: i.maxzoom,
      },
    ],
  }
}
