import { Button } from '@blueprintjs/core'
import { useEffect, useState } from 'react'
import { appConfig } from '../../shared/config'
import { formatDate } from '../../shared/format'
import { useLayerState } from '../layers'
import { ForecastPanel } from '../risk'
import { AlertsSection } from './AlertsSection'
import { fetchFeeds, fetchSources } from './briefingApi'
import { LayersSection } from './LayersSection'
import { MapImageSection } from './MapImageSection'
import { NotesSection } from './NotesSection'
import { PrintPageStyle } from './PrintPageStyle'
import { PspsSection } from './PspsSection'
import { useBriefingData } from './useBriefingData'
import { lazyPart, useMapImage } from '../map'

// A fire what-if added from the map (`fireAt` in the URL): its own chunk, fetched only then.
const FireBriefingSection = lazyPart('The fire what-if', () =>
  import('../fireSim/FireBriefingSection').then((m) => m.FireBriefingSection),
)
const hasFireWhatIf = () => new URLSearchParams(window.location.search).has('fireAt')

/** The forecast hour of the share URL (`?hour=N`, Planning Mode), or null for the current hour. */
function sharedHour(): number | null {
  const raw = new URLSearchParams(window.location.search).get('hour')
  const n = raw === null ? Number.NaN : Number(raw)
  return Number.isInteger(n) && n >= 0 ? n : null
}

/**
 * The shift briefing under its map: the map picture, layers with legends and data times, the
 * forecast, the open alerts, the next PSPS event and the operator's notes, printed through the
 * browser (Print / Save as PDF) with the print stylesheet of briefing.css.
 */
export function BriefingSheet() {
  const { state } = useLayerState()
  const image = useMapImage()
  const sources = useBriefingData(fetchSources)
  const feeds = useBriefingData(fetchFeeds)
  const [hour] = useState(sharedHour)
  const [printedAt, setPrintedAt] = useState(() => Date.now())
  // The forecast (its data and the ApexCharts chunk) starts once the map's first picture is taken:
  // loaded beside the map's tiles it took the main thread while the picture was due (#29 item 3).
  const [mapDrawn, setMapDrawn] = useState(false)
  if (!mapDrawn && image.status !== 'waiting') setMapDrawn(true)
  useEffect(() => {
    const stamp = () => setPrintedAt(Date.now())
    window.addEventListener('beforeprint', stamp)
    return () => window.removeEventListener('beforeprint', stamp)
  }, [])
  const organization = appConfig.identity.organizationName
  const when = formatDate(printedAt)
  return (
    <article className="el-briefing" aria-label="Shift briefing" data-testid="briefing">
      <PrintPageStyle organization={organization} printedAt={when} />
      <header className="el-briefing-head">
        <div>
          <h1>Shift briefing</h1>
          <p>
            {organization} · {when}
            {sources.state === 'ready' && sources.value.demo ? ' · demo data' : ''}
          </p>
        </div>
        {/* Until the map's picture is taken there is nothing to print in its place but a spinner. */}
        <Button
          className="el-briefing-screen-only"
          icon="print"
          intent="primary"
          text={image.status === 'waiting' ? 'Preparing map…' : 'Print / Save as PDF'}
          disabled={image.status === 'waiting'}
          data-testid="briefing-print"
          onClick={() => window.print()}
        />
      </header>
      <MapImageSection image={image} />
      <LayersSection
        state={state}
        sources={sources}
        feeds={feeds.state === 'ready' ? feeds.value : new Map()}
        hour={hour}
      />
      <section className="el-briefing-section el-briefing-forecast" aria-labelledby="briefing-forecast">
        <h2 id="briefing-forecast">{appConfig.chart.title}</h2>
        {mapDrawn ? (
          <ForecastPanel />
        ) : (
          <p className="bp6-text-muted" data-testid="briefing-forecast-waiting">
            The forecast is drawn once the map picture is ready.
          </p>
        )}
      </section>
      {hasFireWhatIf() ? <FireBriefingSection /> : null}
      <AlertsSection />
      <PspsSection />
      <NotesSection />
    </article>
  )
}
