import { MapScreen } from '../../../map'
import { PspsReportSheet } from './PspsReportSheet'
import './pspsReport.css'

/** /PSPS?event=<id>&view=report: the map of the event's de-energized circuits above its printable report. */
export function PspsReportScreen() {
  return (
    <div className="el-psps-report-screen">
      <MapScreen panel={<PspsReportSheet />} panelLayout="flow" />
    </div>
  )
}
