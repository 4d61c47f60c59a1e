import type { Awaitable } from '../store/Awaitable'
import { DatasetChannel } from './datasetChannel'
import { DatasetSync, type SyncedStore } from './datasetSync'
import { AdvisoryLeader } from './leader'

export interface ClusterNodeOptions {
  /** DATABASE_URL. */
  url: string
  store: SyncedStore
  /** A dataset's stored version moved: rebuild its tile data, drop its stale tiles. */
  refresh: (id: string, version: number) => Awaitable<void>
  warn: (message: string, err: unknown) => void
  /** Leader retry period (default 5 s; EMBERLINE_LEADER_RETRY_SECONDS in main.ts). */
  leaderRetryMs?: number
  onLeaderChange?: (leader: boolean) => void
  /**
   * The leader completed a shared tile archive of dataset `id` (null: any dataset — after a
   * reconnect, when notices may have been missed): switch to it.
   */
  onArchive?: (id: string | null) => void
}

/**
 * One server's membership of a PostgreSQL cluster: the scheduled-work leadership (advisory lock on
 * its own connection) and the dataset change channel (LISTEN on its own connection) feeding the
 * DatasetSync. Neither connection is taken from the store's pool.
 */
export class ClusterNode {
  readonly leader: AdvisoryLeader
  readonly sync: DatasetSync
  readonly channel: DatasetChannel

  constructor(opts: ClusterNodeOptions) {
    this.leader = new AdvisoryLeader({
      url: opts.url,
      retryMs: opts.leaderRetryMs,
      warn: opts.warn,
      onChange: opts.onLeaderChange,
    })
    this.sync = new DatasetSync(opts.store, opts.refresh, opts.warn)
    this.channel = new DatasetChannel({
      url: opts.url,
      warn: opts.warn,
      onChange: (notice) => {
        if (notice.archive) opts.onArchive?.(notice.id)
        else void this.sync.changed(notice.id)
      },
      // Every (re)connect re-checks every dataset: a notice sent while disconnected is not lost.
      onListening: () => {
        void this.sync.resync()
        opts.onArchive?.(null)
      },
    })
  }

  /** Remembers the stored versions, then LISTENs (the leadership is started separately, after listen). */
  async listen(): Promise<void> {
    await this.sync.baseline()
    await this.channel.start()
  }

  /** Closes the channel and gives the leadership up (its lock is released with its session). */
  async close(): Promise<void> {
    await this.channel.close()
    await this.leader.close()
    await this.sync.idle()
  }
}
