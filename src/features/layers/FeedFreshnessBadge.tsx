import { Tag } from '@blueprintjs/core'
import './feedBadge.css'
import { badgesFor, type BadgeTone } from './feedFreshness'
import { useFeedFreshness } from './useFeedFreshness'

const INTENT = { fresh: 'none', stale: 'warning', failed: 'danger' } as const satisfies Record<
  BadgeTone,
  string
>

/** Source and age of a feed-backed layer ('VIIRS · 2 h ago'): amber when stale, red with the error on hover when failed. */
export function FeedFreshnessBadge({ layerId }: { readonly layerId: string }) {
  const { feeds, at } = useFeedFreshness()
  const badges = badgesFor(layerId, feeds, at)
  if (badges.length === 0) return null
  return (
    <span className="el-feed-badges">
      {badges.map((b) => (
        <Tag
          key={b.feed}
          minimal
          round
          intent={INTENT[b.tone]}
          className="el-feed-badge"
          data-testid={`${layerId}-freshness`}
          data-feed={b.feed}
          data-tone={b.tone}
          title={b.title}
        >
          {b.text}
        </Tag>
      ))}
    </span>
  )
}
