import { PopoverNext, Tag } from '@blueprintjs/core'
import { useState, type FocusEvent } from 'react'
import './feedBadge.css'
import { layerBadge, type BadgeTone, type LayerBadge } from './feedFreshness'
import { useFeedFreshness } from './useFeedFreshness'

const INTENT = { fresh: 'none', stale: 'warning', failed: 'danger' } as const satisfies Record<
  BadgeTone,
  string
>
const STATE = { fresh: 'Up to date', stale: 'Stale', failed: 'Failed' } as const satisfies Record<
  BadgeTone,
  string
>

/** Every feed of the layer, worst first: source and age, state, and why it failed or when it updated. */
function FeedDetail({ layerId, badge }: { readonly layerId: string; readonly badge: LayerBadge }) {
  return (
    <div className="el-feed-detail" data-testid={`${layerId}-freshness-detail`}>
      <ul>
        {badge.feeds.map((f) => (
          <li key={f.feed} data-feed={f.feed} data-tone={f.tone}>
            <Tag minimal round intent={INTENT[f.tone]} className="el-feed-detail-state">
              {STATE[f.tone]}
            </Tag>
            <strong>{f.text}</strong>
            <p>{f.title}</p>
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * The freshness of a feed-backed layer as one badge, however many feeds write it: the worst state
 * ('VIIRS · 2 h ago' amber when stale, '4 feeds failed' red), each feed's detail — why it failed —
 * in a popover a tap, a click, Enter or keyboard focus opens (a title attribute reaches neither
 * touch nor keyboard users).
 */
export function FeedFreshnessBadge({
  layerId,
  layerName,
}: {
  readonly layerId: string
  readonly layerName: string
}) {
  const { feeds, at } = useFeedFreshness()
  const [open, setOpen] = useState(false)
  const badge = layerBadge(layerId, feeds, at)
  if (!badge) return null
  // Keyboard focus opens the detail; focus from a pointer waits for its click (else the click would close it).
  const onFocus = (e: FocusEvent<HTMLElement>) => {
    if (e.currentTarget.matches(':focus-visible')) setOpen(true)
  }
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    const next = e.relatedTarget
    if (!(next instanceof Node && document.querySelector('.el-feed-detail-popover')?.contains(next)))
      setOpen(false)
  }
  return (
    <PopoverNext
      isOpen={open}
      onInteraction={setOpen}
      placement="bottom-end"
      autoFocus={false}
      enforceFocus={false}
      className="el-feed-badge-target"
      popoverClassName="el-feed-detail-popover"
      content={<FeedDetail layerId={layerId} badge={badge} />}
    >
      <Tag
        minimal
        round
        interactive
        intent={INTENT[badge.tone]}
        className="el-feed-badge"
        data-testid={`${layerId}-freshness`}
        data-tone={badge.tone}
        aria-label={`${layerName} feeds: ${badge.text}. Show each feed`}
        aria-expanded={open}
        onFocus={onFocus}
        onBlur={onBlur}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false)
        }}
      >
        {badge.text}
      </Tag>
    </PopoverNext>
  )
}
