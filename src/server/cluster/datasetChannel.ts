import pg from 'pg'

/** The channel the PostgreSQL store notifies on when a dataset's data is replaced (import, feed run). */
export const DATASET_CHANNEL = 'emberline_dataset'

/**
 * The payload of a notification: `{"id": "<dataset>", "version": <n>}`; with `"archive":
 * "<source>"` when the leader completed a source's shared tile archive of that version.
 */
export interface DatasetNotice {
  id: string
  version: number | null
  archive?: string
}

export interface DatasetChannelOptions {
  /** DATABASE_URL. */
  url: string
  /** A dataset was replaced (through any server or CLI). */
  onChange: (notice: DatasetNotice) => void
  /**
   * The connection was (re)established: notifications sent while it was down are lost, so every
   * dataset must be re-checked. Called after every successful LISTEN, the first one included.
   */
  onListening: () => void
  /** Wait before reconnecting after a failure (default 2 s). */
  retryMs?: number
  warn?: (message: string, err: unknown) => void
}

/** Parses a notification payload; null when it is not a dataset notice. */
export function parseDatasetNotice(payload: string | undefined): DatasetNotice | null {
  if (!payload) return null
  try {
    const v = JSON.parse(payload) as unknown
    if (typeof v !== 'object' || v === null) return null
    const { id, version, archive } = v as { id?: unknown; version?: unknown; archive?: unknown }
    if (typeof id !== 'string' || id === '') return null
    const notice: DatasetNotice = {
      id,
      version: typeof version === 'number' && Number.isFinite(version) ? version : null,
    }
    if (typeof archive === 'string' && archive !== '') notice.archive = archive
    return notice
  } catch {
    return null
  }
}

/**
 * A dedicated connection LISTENing on `emberline_dataset`. It reconnects after a dropped
 * connection (database restart, failover, network) every `retryMs` until it succeeds, and then
 * calls `onListening` so that the caller re-checks every dataset's version.
 */
export class DatasetChannel {
  private client: pg.Client | null = null
  private timer: NodeJS.Timeout | null = null
  private closed = false
  /** Connections made so far (1 after the first LISTEN; tests watch reconnects). */
  connections = 0

  constructor(private readonly opts: DatasetChannelOptions) {}

  /** Connects and LISTENs; resolves after the first attempt (a failure schedules retries). */
  async start(): Promise<void> {
    await this.connect()
  }

  get listening(): boolean {
    return this.client !== null
  }

  private async connect(): Promise<void> {
    if (this.closed) return
    const client = new pg.Client({
      connectionString: this.opts.url,
      application_name: 'emberline-listen',
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    })
    const dropped = (err: unknown) => {
      if (this.client !== client && this.client !== null) return
      this.client = null
      void client.end().catch(() => undefined)
      if (!this.closed) {
        this.opts.warn?.('dataset change channel lost; reconnecting', err)
        this.retry()
      }
    }
    client.on('error', dropped)
    client.on('end', () => dropped(new Error('connection closed')))
    client.on('notification', (msg) => {
      if (msg.channel !== DATASET_CHANNEL) return
      const notice = parseDatasetNotice(msg.payload)
      if (notice) this.opts.onChange(notice)
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${DATASET_CHANNEL}`)
    } catch (err) {
      client.removeAllListeners('end')
      void client.end().catch(() => undefined)
      if (!this.closed) {
        this.opts.warn?.('dataset change channel could not connect; retrying', err)
        this.retry()
      }
      return
    }
    if (this.closed) {
      await client.end().catch(() => undefined)
      return
    }
    this.client = client
    this.connections++
    this.opts.onListening()
  }

  private retry(): void {
    if (this.timer || this.closed) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.connect()
    }, this.opts.retryMs ?? 2000)
    this.timer.unref()
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const client = this.client
    this.client = null
    if (client) await client.end().catch(() => undefined)
  }
}
