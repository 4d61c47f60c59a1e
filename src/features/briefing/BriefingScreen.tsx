import { MapScreen } from '../map'
import { BriefingSheet } from './BriefingSheet'
import './briefing.css'

/** /Briefing: the map of the share URL it was opened with, and the printable briefing beneath it. */
export function BriefingScreen() {
  return (
    <div className="el-briefing-screen">
      <MapScreen panel={<BriefingSheet />} panelLayout="flow" />
    </div>
  )
}
