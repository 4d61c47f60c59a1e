import pg from 'pg'
import { ADVISORY_LOCK_SPACE } from '../store/pg/pgDatabase'
import { LeaderTasks, type LeaderTask, type Leadership } from './leadership'

/**
 * Second key of the scheduled-work lock: (ADVISORY_LOCK_SPACE, 1001). Taken keys: 1 migrations, 2
 * the store's table setup, hashtext('dataset:<id>') imports, 1001-1002 the cluster (startLock.ts).
 */
export const SCHEDULER_LOCK = 1001

export interface AdvisoryLeaderOptions {
  /** DATABASE_URL. */
  url: string
  /** How often a follower tries the lock and the leader checks its connection (default 5 s). */
  retryMs?: number
  /** The lock's second key (default SCHEDULER_LOCK; tests use their own). */
  key?: number
  warn?: (message: string, err: unknown) => void
  /** Told when this server becomes (true) or stops being (false) the leader. */
  onChange?: (leader: boolean) => void
}

/**
 * The leader of the cluster's scheduled work: the server whose dedicated connection holds the
 * session advisory lock (ADVISORY_LOCK_SPACE, SCHEDULER_LOCK). Every `retryMs` a follower tries
 * `pg_try_advisory_lock` and the leader checks that its connection still answers. When the
 * leader dies its connection closes, PostgreSQL releases the lock, and the next follower to try
 * takes over (within one retry period). A leader whose connection fails stops its tasks at once
 * (it can no longer be sure it holds the lock) and tries again with a fresh connection.
 */
export class AdvisoryLeader implements Leadership {
  private readonly tasks: LeaderTasks
  private client: pg.Client | null = null
  private timer: NodeJS.Timeout | null = null
  private closed = false
  private running: Promise<void> = Promise.resolve()
  private readonly retryMs: number
  private readonly key: number

  constructor(private readonly opts: AdvisoryLeaderOptions) {
    this.tasks = new LeaderTasks(opts.warn ?? (() => undefined))
    this.retryMs = opts.retryMs ?? 5000
    this.key = opts.key ?? SCHEDULER_LOCK
  }

  get isLeader(): boolean {
    return this.tasks.isLeader
  }

  whileLeader(task: LeaderTask): () => void {
    return this.tasks.add(task)
  }

  /** Makes the first attempt now (resolves when it is done) and then one every `retryMs`. */
  start(): Promise<void> {
    return this.tick()
  }

  private tick(): Promise<void> {
    this.running = this.attempt().finally(() => {
      if (this.closed) return
      this.timer = setTimeout(() => void this.tick(), this.retryMs)
      this.timer.unref()
    })
    return this.running
  }

  private async attempt(): Promise<void> {
    if (this.closed) return
    try {
      const client = await this.connection()
      if (this.isLeader) {
        await client.query('SELECT 1')
        return
      }
      const res = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
        ADVISORY_LOCK_SPACE,
        this.key,
      ])
      if (res.rows[0]?.locked && !this.closed) this.become(true)
    } catch (err) {
      this.lost(err)
    }
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client
    const client = new pg.Client({
      connectionString: this.opts.url,
      application_name: 'emberline-leader',
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      query_timeout: 5000,
    })
    // A dropped connection: the lock is gone with it, so stop leading now, not at the next check.
    client.on('error', (err) => {
      if (this.client === client) this.lost(err)
    })
    client.on('end', () => {
      if (this.client === client) this.lost(new Error('leader connection closed'))
    })
    this.client = client
    await client.connect()
    return client
  }

  private lost(err: unknown): void {
    const client = this.client
    this.client = null
    if (client) void client.end().catch(() => undefined)
    if (this.isLeader) {
      this.opts.warn?.('lost the scheduled-work leadership (database connection failed)', err)
      this.become(false)
    }
  }

  private become(leader: boolean): void {
    if (leader) this.tasks.lead()
    else this.tasks.follow()
    this.opts.onChange?.(leader)
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    await this.running.catch(() => undefined)
    if (this.isLeader) this.become(false)
    const client = this.client
    this.client = null
    // Ending the session releases the lock: the next server takes over at its next try.
    if (client) await client.end().catch(() => undefined)
  }
}
