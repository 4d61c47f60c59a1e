import { fromCallback } from 'xstate'
import { feedFreshnessSnapshot, subscribeFeedFreshness } from '../layers'

/** What the watcher tells the attribute-tables machine: every dataset's current version. */
export interface DatasetVersionsEvent {
  type: 'datasets.versions'
  versions: Readonly<Record<string, number>>
}

/**
 * While tables are shown: every dataset's version from the GET /api/feeds poll the sidebar's
 * freshness badges already run once a minute (no second poller) — at once when an answer is
 * known, then after each answer.
 */
export const watchDatasetVersions = fromCallback<{ type: 'never' }>(({ sendBack }) => {
  const send = () => {
    const { versions, at } = feedFreshnessSnapshot()
    if (at > 0) sendBack({ type: 'datasets.versions', versions } satisfies DatasetVersionsEvent)
  }
  send()
  return subscribeFeedFreshness(send)
})
