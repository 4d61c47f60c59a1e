import type { FastifyInstance } from 'fastify'
import {
  type FeedDefinition,
  feedsConfig,
  type FeedsConfig,
  type GridFeedDefinition,
} from '../../shared/config'
import { tileIndexesOf } from '../tiles/tileIndexes'
import { importFeedInWorker } from './importFeedInWorker'
import { runFeed, type RunResult } from './runFeed'
import { runGridFeed, type GridRunResult } from './runGridFeed'

export interface FeedPollerOptions {
  /** Defaults to config/feeds.yaml. */
  config?: FeedsConfig
  /** The clock retention and freshness use (defaults to Date.now). */
  now?: () => number
  env?: NodeJS.ProcessEnv
  /** Poll on the schedule once the app is ready (default true); false: only `pollOnce` runs feeds. */
  schedule?: boolean
  /** Waits between download retries (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>
}

const MINUTE = 60_000

/**
 * Milliseconds until a feed's next poll: its schedule after a success; after `failures` failed
 * runs in a row 1, 2, 4 … minutes (backoff), never later than the schedule.
 */
export function nextPollDelay(everyMinutes: number, failures: number): number {
  const every = everyMinutes * MINUTE
  return failures === 0 ? every : Math.min(every, MINUTE * 2 ** Math.min(failures - 1, 10))
}

/**
 * Polls the enabled feeds: each on its `everyMinutes` (a failed feed is retried sooner, after
 * 1, 2, 4 … minutes, never later than its schedule), one run at a time, with conditional GET.
 * After an update the dataset's tile data and archives are rebuilt in the tile worker (tiles then
 * answer with a new ETag, the records API with the new rows) and the alerts are re-evaluated.
 */
export class FeedPoller {
  readonly config: FeedsConfig
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private queue: Promise<unknown> = Promise.resolve()
  private stopped = false
  /** The clock runs and freshness are measured with. */
  readonly clock: () => number

  constructor(
    private readonly app: FastifyInstance,
    private readonly options: FeedPollerOptions & { enabled: boolean },
  ) {
    this.config = options.config ?? feedsConfig
    this.clock = options.now ?? Date.now
  }

  /** True when the server polls (FEEDS=on). */
  get enabled(): boolean {
    return this.options.enabled
  }

  /** The feeds polled: enabled in config. */
  feeds(): FeedDefinition[] {
    return this.config.feeds.filter((f) => f.enabled !== false)
  }

  /** The grid feeds polled: enabled in config (`gridFeeds`). */
  gridFeeds(): GridFeedDefinition[] {
    return (this.config.gridFeeds ?? []).filter((f) => f.enabled !== false)
  }

  /** Runs one grid feed now (queued behind any run in progress, as the vector feeds). */
  runGrid(feed: GridFeedDefinition, opts: { conditional?: boolean } = {}): Promise<GridRunResult> {
    const job = this.queue.then(() => this.runGridNow(feed, opts.conditional ?? true))
    this.queue = job.catch(() => undefined)
    return job
  }

  /** Runs one feed now (queued behind any run in progress). */
  run(feed: FeedDefinition, opts: { conditional?: boolean } = {}): Promise<RunResult> {
    const job = this.queue.then(() => this.runNow(feed, opts.conditional ?? true))
    this.queue = job.catch(() => undefined)
    return job
  }

  /** Runs every polled feed once, in config order (tests and the benchmark). */
  async pollOnce(): Promise<RunResult[]> {
    const out: RunResult[] = []
    for (const feed of this.feeds()) out.push(await this.run(feed))
    return out
  }

  /** Starts polling (again after `stop`: the scheduled-work leadership can move back to this server). */
  start(): void {
    if (!this.options.enabled || this.options.schedule === false) return
    this.stopped = false
    const feeds = this.feeds()
    feeds.forEach((feed, i) => this.schedule(feed, i * 2000, () => this.run(feed)))
    this.gridFeeds().forEach((feed, i) =>
      this.schedule(feed, (feeds.length + i) * 2000, () => this.runGrid(feed)),
    )
  }

  stop(): void {
    this.stopped = true
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
  }

  private schedule(
    feed: { id: string; everyMinutes: number },
    delay: number,
    run: () => Promise<{ ok: boolean }>,
  ): void {
    if (this.stopped) return
    const timer = setTimeout(() => {
      void run()
        .then(async (r) => nextPollDelay(feed.everyMinutes, r.ok ? 0 : await this.failures(feed)))
        .catch(() => nextPollDelay(feed.everyMinutes, 1))
        .then((next) => this.schedule(feed, next, run))
    }, delay)
    timer.unref()
    this.timers.set(feed.id, timer)
  }

  private async failures(feed: { id: string }): Promise<number> {
    return (await this.app.store.feeds.status(feed.id))?.failures ?? 1
  }

  private async runNow(feed: FeedDefinition, conditional: boolean): Promise<RunResult> {
    const result = await runFeed({ store: this.app.store, config: this.config, now: this.clock() }, feed, {
      conditional,
      env: this.options.env,
      sleep: this.options.sleep,
      // Parse, map and write off the event loop: sign-in never waits for a feed import.
      importer: importFeedInWorker,
    })
    if (result.ok) this.app.log.info({ ...result.summary, rejections: undefined }, 'feed run')
    else
      this.app.log.warn(
        { feed: feed.id, error: result.error },
        'feed run failed; the stored data is unchanged',
      )
    if (result.ok && result.changed) await this.afterUpdate(feed.dataset)
    return result
  }

  private async runGridNow(feed: GridFeedDefinition, conditional: boolean): Promise<GridRunResult> {
    const result = await runGridFeed(
      { store: this.app.store, config: this.config, now: this.clock() },
      feed,
      {
        conditional,
        env: this.options.env,
        sleep: this.options.sleep,
      },
    )
    if (result.ok) this.app.log.info({ feed: feed.id, ...result.summary.grid }, 'grid feed run')
    else
      this.app.log.warn(
        { feed: feed.id, error: result.error },
        'grid feed run failed; the stored grid is unchanged',
      )
    return result
  }

  /** Tile data + archives rebuilt off the event loop; alerts re-evaluated (delivery listens on the engine). */
  private async afterUpdate(datasetId: string): Promise<void> {
    try {
      await tileIndexesOf(this.app.store).get(datasetId)
    } catch (e) {
      this.app.log.error(e, 'tile rebuild after a feed update failed (tiles are served from the store)')
    }
    if (this.app.hasDecorator('alertsEngine')) {
      try {
        await this.app.alertsEngine.evaluate()
      } catch (e) {
        this.app.log.error(e, 'alert evaluation after a feed update failed')
      }
    }
  }
}
