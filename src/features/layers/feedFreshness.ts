/** One feed as GET /api/feeds lists it (the fields the sidebar badge reads). */
export interface FeedFreshness {
  readonly id: string
  readonly title: string
  readonly layers: readonly string[]
  readonly everyMinutes: number
  readonly lastAttemptAt: string | null
  readonly lastSuccessAt: string | null
  readonly newestDataAt: string | null
  readonly lastError: string | null
}

export type BadgeTone = 'fresh' | 'stale' | 'failed'

export interface Badge {
  readonly feed: string
  /** 'VIIRS · 2 h ago' */
  readonly text: string
  readonly tone: BadgeTone
  /** The detail: the last error when the last run failed, else when the data was updated. */
  readonly title: string
}

/** The one badge of a sidebar layer: the worst state of its feeds, each feed's detail behind it. */
export interface LayerBadge {
  /** 'VIIRS · 2 h ago' for one feed; '3 of 4 feeds failed', '4 feeds · 2 h ago' for several. */
  readonly text: string
  readonly tone: BadgeTone
  /** Every feed of the layer, worst first (failed, stale, fresh), each with its detail. */
  readonly feeds: readonly Badge[]
}

/** '2 h ago', '5 min ago', 'just now', '3 d ago'. */
export function formatAge(ms: number): string {
  const min = Math.floor(Math.max(ms, 0) / 60_000)
  if (min < 1) return 'just now'
  if (min < 60) return `${min} min ago`
  const h = Math.floor(min / 60)
  if (h < 48) return `${h} h ago`
  return `${Math.floor(h / 24)} d ago`
}

/**
 * The freshness badges of a sidebar layer: one per feed that writes a dataset the layer draws and
 * has run at least once. Amber when the last success is older than twice the feed's schedule; red
 * (with the error on hover) when the last run failed.
 */
export function badgesFor(layerId: string, feeds: readonly FeedFreshness[], now: number): Badge[] {
  return feeds
    .filter((f) => f.layers.includes(layerId) && f.lastAttemptAt !== null)
    .map((f) => {
      const success = f.lastSuccessAt ? Date.parse(f.lastSuccessAt) : null
      const age = success === null ? 'never updated' : formatAge(now - success)
      const tone: BadgeTone = f.lastError
        ? 'failed'
        : success !== null && now - success > 2 * f.everyMinutes * 60_000
          ? 'stale'
          : 'fresh'
      const updated =
        success === null
          ? 'No successful update yet'
          : `Updated ${new Date(success).toISOString().replace('.000Z', 'Z')}`
      const newest = f.newestDataAt ? `; newest data ${f.newestDataAt.replace('.000Z', 'Z')}` : ''
      const title =
        tone === 'failed'
          ? `Last update failed: ${f.lastError ?? ''}`
          : tone === 'stale'
            ? `${updated}${newest} — older than twice the ${f.everyMinutes}-minute schedule`
            : `${updated}${newest}`
      return { feed: f.id, text: `${f.title} · ${age}`, tone, title }
    })
}

const WORST_FIRST: readonly BadgeTone[] = ['failed', 'stale', 'fresh']

/**
 * One badge for a layer however many feeds write it (FIRMS: four satellites): the worst state of
 * them, counted in its text; null when no feed of the layer has run.
 */
export function layerBadge(layerId: string, feeds: readonly FeedFreshness[], now: number): LayerBadge | null {
  const rank = (b: Badge) => WORST_FIRST.indexOf(b.tone)
  const all = badgesFor(layerId, feeds, now).sort((a, b) => rank(a) - rank(b))
  const [worst] = all
  if (!worst) return null
  if (all.length === 1) return { text: worst.text, tone: worst.tone, feeds: all }
  const n = all.length
  if (worst.tone === 'fresh') {
    // The oldest success among them: the age the layer is at least as fresh as.
    const oldest = Math.min(
      ...feeds
        .filter((f) => f.layers.includes(layerId) && f.lastSuccessAt)
        .map((f) => Date.parse(f.lastSuccessAt ?? '')),
    )
    return { text: `${n} feeds · ${formatAge(now - oldest)}`, tone: 'fresh', feeds: all }
  }
  const k = all.filter((b) => b.tone === worst.tone).length
  const state = worst.tone === 'failed' ? 'failed' : 'stale'
  return {
    text: k === n ? `${n} feeds ${state}` : `${k} of ${n} feeds ${state}`,
    tone: worst.tone,
    feeds: all,
  }
}
