/** starting: not yet serving; ready: serving; draining: shutting down (SIGTERM), finishing requests. */
export type ReadinessState = 'starting' | 'ready' | 'draining'

export interface ReadinessReport {
  ready: boolean
  state: ReadinessState
  /** ok, or unreachable when the database did not answer (PostgreSQL mode). */
  database: 'ok' | 'unreachable'
}

/** How long the readiness probe waits for the database before answering unreachable. */
const PROBE_TIMEOUT_MS = 2000

/**
 * Whether a load balancer should send this server requests (GET /api/ready): only once it is
 * started, not while it drains, and only while its database answers (`probe`, a `SELECT 1` on
 * PostgreSQL; SQLite is in-process and always answers).
 */
export class Readiness {
  private current: ReadinessState = 'starting'
  private started = false
  private readonly holds = new Set<symbol>()
  private readonly waiting: (() => void)[] = []

  constructor(private readonly probe: () => Promise<unknown> = async () => undefined) {}

  get state(): ReadinessState {
    return this.current
  }

  /** Started: ready unless draining already, or once the work still held (`hold`) is done. */
  markReady(): void {
    this.started = true
    this.settle()
  }

  /**
   * Keeps the server 'starting' (GET /api/ready 503) until the returned release is called: work
   * that runs after listen (main.ts's warm-up) and without which the server would answer slowly.
   * /api/health answers meanwhile.
   */
  hold(): () => void {
    const key = Symbol('hold')
    this.holds.add(key)
    return () => {
      this.holds.delete(key)
      this.settle()
    }
  }

  private settle(): void {
    if (this.current === 'starting' && this.started && this.holds.size === 0) {
      this.current = 'ready'
      for (const resolve of this.waiting.splice(0)) resolve()
    }
  }

  /**
   * Resolves once the server is ready (started, warm-up done): work that can wait (the first alert
   * evaluation) then does not compete with the warm-up for the server's thread. Never resolves
   * when the server drains before it was ready.
   */
  whenReady(): Promise<void> {
    if (this.current === 'ready') return Promise.resolve()
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /** Shutting down: not ready from now on. */
  drain(): void {
    this.current = 'draining'
  }

  async report(): Promise<ReadinessReport> {
    const database = (await this.reachable()) ? 'ok' : 'unreachable'
    return { ready: this.current === 'ready' && database === 'ok', state: this.current, database }
  }

  private async reachable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined
    try {
      return await Promise.race([
        this.probe().then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS)
        }),
      ])
    } catch {
      return false
    } finally {
      clearTimeout(timer)
    }
  }
}
