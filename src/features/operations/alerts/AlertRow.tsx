import { Button, Tag } from '@blueprintjs/core'
import { themeTextOn } from '../../../shared/a11y/themeText'
import { formatDate, formatOneDecimal } from '../../../shared/format'
import type { AlertInfo, AlertSeverityInfo } from './alertsApi'

export interface AlertRowProps {
  alert: AlertInfo
  severity: AlertSeverityInfo | undefined
  shown: boolean
  saving: boolean
  onShow(alert: AlertInfo): void
  onAcknowledge(alert: AlertInfo, acknowledged: boolean): void
}

function assetsText(alert: AlertInfo): string {
  const n = alert.assets.length
  const nearest = alert.nearestMiles === 0 ? 'touching' : `nearest ${formatOneDecimal(alert.nearestMiles)} mi`
  return `${n} ${n === 1 ? 'asset' : 'assets'} · ${nearest}`
}

/** One alert: severity, rule, hazard, exposed assets, time, 'Show on map' and 'Acknowledge'. */
export function AlertRow({ alert, severity, shown, saving, onShow, onAcknowledge }: AlertRowProps) {
  const assetNames = alert.assets
    .map((a) => `${a.label} (${formatOneDecimal(a.distanceMiles)} mi)`)
    .join(', ')
  return (
    <tr
      className={shown ? 'el-ops-selected' : undefined}
      data-alert-id={alert.id}
      data-acknowledged={alert.acknowledged ? 'true' : 'false'}
    >
      <td>
        <Tag
          className="el-alert-severity"
          style={
            severity ? { backgroundColor: severity.color, color: themeTextOn(severity.color) } : undefined
          }
          round
        >
          {severity?.label ?? alert.severity}
        </Tag>
      </td>
      <td>{alert.ruleTitle}</td>
      <td>{alert.hazard.label}</td>
      <td title={assetNames}>{assetsText(alert)}</td>
      <td>{formatDate(alert.time)}</td>
      <td className="el-alert-actions">
        <Button size="small" variant="minimal" icon="locate" onClick={() => onShow(alert)} active={shown}>
          Show on map
        </Button>
        {alert.acknowledged ? (
          <>
            <Tag
              icon="tick"
              intent="success"
              minimal
              title={alert.acknowledgedAt ? `Acknowledged ${formatDate(alert.acknowledgedAt)}` : undefined}
            >
              Acknowledged
            </Tag>
            <Button
              size="small"
              variant="minimal"
              loading={saving}
              onClick={() => onAcknowledge(alert, false)}
            >
              Undo
            </Button>
          </>
        ) : (
          <Button size="small" icon="tick" loading={saving} onClick={() => onAcknowledge(alert, true)}>
            Acknowledge
          </Button>
        )}
      </td>
    </tr>
  )
}
