import type { Alert } from '../alerts'

/** A template's values by placeholder name. */
export type MessageFields = Record<string, string>

/** The placeholders alert templates take (scripts/config/checkOperations.ts checks the same list). */
export const ALERT_FIELDS = [
  'id',
  'rule',
  'ruleTitle',
  'severity',
  'severityLabel',
  'hazard',
  'hazardDataset',
  'time',
  'assets',
  'assetCount',
  'nearestMiles',
  'link',
] as const

/** How many asset names a message lists before "and N more". */
const LISTED_ASSETS = 5

/** [lon, lat, zoom] that frames a bbox in a map about 800 × 500 px (zoom 5–16). */
export function viewOfBbox(bbox: readonly [number, number, number, number]): [number, number, number] {
  const [w, s, e, n] = bbox
  const lonSpan = Math.max(e - w, 1e-6)
  const latSpan = Math.max(n - s, 1e-6)
  const fit = Math.min(Math.log2((360 * 800) / (256 * lonSpan)), Math.log2((170 * 500) / (256 * latSpan)))
  const zoom = Math.max(5, Math.min(16, Math.floor(fit - 0.5)))
  return [(w + e) / 2, (s + n) / 2, zoom]
}

/** The app link that opens the Alerts view at one alert (map centred on it, the alert shown). */
export function alertLink(baseUrl: string, alert: Pick<Alert, 'id' | 'bbox'>): string {
  const [lon, lat, zoom] = viewOfBbox(alert.bbox)
  const query = `alert=${encodeURIComponent(alert.id)}&c=${lon.toFixed(5)},${lat.toFixed(5)}&z=${zoom}`
  return `${baseUrl.replace(/\/+$/, '')}/Alerts?${query}`
}

/** The alert's time as local wall-clock text in the delivery time zone, e.g. "Nov 22, 11:05 MST". */
export function localTime(iso: string, timeZone: string): string {
  const t = Date.parse(iso)
  if (!Number.isFinite(t)) return iso
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(t)
}

/** The values of every alert placeholder for one alert. */
export function alertFields(
  alert: Alert,
  opts: { severityLabel: string; baseUrl: string; timeZone: string },
): MessageFields {
  const names = alert.assets.map((a) => a.label)
  const listed = names.slice(0, LISTED_ASSETS).join(', ')
  const more = names.length > LISTED_ASSETS ? ` and ${names.length - LISTED_ASSETS} more` : ''
  return {
    id: alert.id,
    rule: alert.ruleId,
    ruleTitle: alert.ruleTitle,
    severity: alert.severity,
    severityLabel: opts.severityLabel,
    hazard: alert.hazard.label,
    hazardDataset: alert.hazard.dataset,
    time: localTime(alert.time, opts.timeZone),
    assets: `${listed}${more}`,
    assetCount: String(alert.assets.length),
    nearestMiles: alert.nearestMiles.toFixed(2),
    link: alertLink(opts.baseUrl, alert),
  }
}

/** Replaces every `{field}` with its value; a placeholder without a value is left as it is. */
export function renderTemplate(template: string, fields: Readonly<MessageFields>): string {
  return template.replace(/\{([^{}]*)\}/g, (whole, name: string) => fields[name] ?? whole)
}
