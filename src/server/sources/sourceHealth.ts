/** One external source's last known state, as the map and the Documentation page show it. */
export interface SourceState {
  readonly id: string
  /** ok: the upstream answered last time; unavailable: it failed (the cache may still serve); unknown: not asked yet. */
  readonly state: 'ok' | 'unavailable' | 'unknown'
  /** Why it is unavailable (the proxy's 502/504 message); absent when ok or unknown. */
  readonly message?: string
  /** ISO time of the last answer from the upstream. */
  readonly lastSuccess?: string
  /** ISO time of the last failure. */
  readonly lastFailure?: string
}

interface Entry {
  ok: boolean | null
  /** Failures recorded so far (a run that recorded one must not end by calling itself a success). */
  failures: number
  message?: string
  lastSuccess?: number
  lastFailure?: number
}

/**
 * Per-source health from the outcomes of real upstream requests: the last answer decides (a
 * success clears an earlier failure, so recovery needs no action). In memory, per server process.
 */
export class SourceHealth {
  private readonly entries = new Map<string, Entry>()
  constructor(private readonly now: () => number = Date.now) {}

  succeeded(id: string): void {
    const e = this.entry(id)
    e.ok = true
    e.message = undefined
    e.lastSuccess = this.now()
  }

  failed(id: string, message: string): void {
    const e = this.entry(id)
    e.ok = false
    e.failures++
    e.message = message
    e.lastFailure = this.now()
  }

  /** How many failures were recorded for the source (compare before and after a request). */
  failureCount(id: string): number {
    return this.entries.get(id)?.failures ?? 0
  }

  /**
   * Runs one upstream exchange and records a success unless a failure was recorded meanwhile (the
   * cache served a kept answer because the upstream failed); a throw is left to the caller.
   */
  async succeededUnlessFailed<T>(id: string, run: () => Promise<T>): Promise<T> {
    const before = this.failureCount(id)
    const result = await run()
    if (this.failureCount(id) === before) this.succeeded(id)
    return result
  }

  state(id: string): SourceState {
    const e = this.entries.get(id)
    if (!e || e.ok === null) return { id, state: 'unknown' }
    return {
      id,
      state: e.ok ? 'ok' : 'unavailable',
      ...(e.ok || e.message === undefined ? {} : { message: e.message }),
      ...(e.lastSuccess === undefined ? {} : { lastSuccess: new Date(e.lastSuccess).toISOString() }),
      ...(e.lastFailure === undefined ? {} : { lastFailure: new Date(e.lastFailure).toISOString() }),
    }
  }

  private entry(id: string): Entry {
    let e = this.entries.get(id)
    if (!e) {
      e = { ok: null, failures: 0 }
      this.entries.set(id, e)
    }
    return e
  }
}
