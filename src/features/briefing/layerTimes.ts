import { formatDate as formatDateIn, type FormatOptions } from '../../shared/format'
import type { BriefingSources, FeedFreshness } from './briefingApi'
import type { LayerSources } from './briefingLayers'

const HOUR_MS = 3_600_000

/** One printed line about a layer's data: its valid time or its freshness. */
export interface TimeLine {
  readonly label: string
  readonly text: string
  /** A feed reports a failed last run. */
  readonly warning?: boolean
}

/**
 * Valid time and data freshness of a layer's data: an hourly grid is valid at the window start plus
 * the forecast hour (the share URL's `hour`, else the current hour); a dataset as of its newest
 * data time, updated when last written (or, with a live feed, its last successful run and error).
 */
export function layerTimes(
  sources: LayerSources,
  info: BriefingSources,
  feeds: ReadonlyMap<string, FeedFreshness>,
  hour: number | null,
  /** Formatting overrides (tests pin the zone); the browser's zone by default. */
  format?: FormatOptions,
): TimeLine[] {
  const formatDate = (value: unknown) => formatDateIn(value, format)
  const lines: TimeLine[] = []
  for (const grid of sources.grids) {
    const stored = info.grids.find((g) => g.id === grid.id)
    if (grid.hourly) {
      const h = Math.min(Math.max(hour ?? info.window.currentHour, 0), info.window.hours - 1)
      const valid = Date.parse(info.window.start) + h * HOUR_MS
      lines.push({
        label: 'Valid time',
        text: `${formatDate(valid)} (forecast hour ${h} of ${info.window.hours})`,
      })
    } else lines.push({ label: 'Valid time', text: 'Static grid (no forecast hours)' })
    lines.push({
      label: 'Data',
      text: stored
        ? `grid ${grid.id} from ${stored.source}, version ${stored.version.slice(0, 8)}`
        : `grid ${grid.id} not loaded`,
    })
  }
  for (const id of sources.datasets) {
    const d = info.datasets.find((x) => x.id === id)
    if (!d) continue
    const feed = feeds.get(id)
    const newest = feed?.newestDataAt ?? d.newest?.value ?? null
    lines.push({
      label: 'Valid time',
      text: newest ? `newest data ${formatDate(newest)}` : `no time in the data (${d.title})`,
    })
    const stored = `${d.title}: ${d.count.toLocaleString('en-US')} features, updated ${formatDate(d.updatedAt) || 'never'}`
    if (!feed) lines.push({ label: 'Data', text: stored })
    else if (feed.lastSuccessAt)
      lines.push({
        label: 'Data',
        text: `${d.title}: live feed, last updated ${formatDate(feed.lastSuccessAt)}${feed.lastError ? `; last error: ${feed.lastError}` : ''}`,
        warning: feed.lastError !== null,
      })
    else
      lines.push({
        label: 'Data',
        text: `${stored}; live feed not updated yet${feed.lastError ? ` (last error: ${feed.lastError})` : ''}`,
        warning: feed.lastError !== null,
      })
  }
  return lines
}
