/** Work that runs only while this server leads: `start` begins it and answers how to stop it. */
export type LeaderTask = () => () => void

/**
 * Which server runs the scheduled work (feed polling, alert evaluation, delivery jobs). On
 * PostgreSQL exactly one server of the cluster leads at a time (leader.ts: a session advisory
 * lock); on SQLite the one process always leads (`soleLeader`).
 */
export interface Leadership {
  /** True while this server holds the leadership. */
  readonly isLeader: boolean
  /**
   * Runs `task` whenever this server becomes leader (at once when it already is) and stops it when
   * the leadership is lost or the leadership closes. Answers a function that unregisters the task
   * (stopping it when it runs).
   */
  whileLeader(task: LeaderTask): () => void
  /** Stops every running task and gives the leadership up (releases the lock, closes its connection). */
  close(): Promise<void>
}

/**
 * Runs the tasks of a Leadership: `lead()` starts every task, `follow()` stops them. Shared by the
 * sole leader and the advisory-lock leader.
 */
export class LeaderTasks {
  private readonly tasks = new Map<LeaderTask, (() => void) | null>()
  private leading = false

  constructor(private readonly warn: (message: string, err: unknown) => void) {}

  get isLeader(): boolean {
    return this.leading
  }

  add(task: LeaderTask): () => void {
    this.tasks.set(task, null)
    if (this.leading) this.startOne(task)
    return () => {
      this.stopOne(task)
      this.tasks.delete(task)
    }
  }

  lead(): void {
    if (this.leading) return
    this.leading = true
    for (const task of this.tasks.keys()) this.startOne(task)
  }

  follow(): void {
    if (!this.leading) return
    this.leading = false
    for (const task of this.tasks.keys()) this.stopOne(task)
  }

  private startOne(task: LeaderTask): void {
    try {
      this.tasks.set(task, task())
    } catch (err) {
      this.warn('scheduled work failed to start', err)
    }
  }

  private stopOne(task: LeaderTask): void {
    const stop = this.tasks.get(task)
    if (!stop) return
    this.tasks.set(task, null)
    try {
      stop()
    } catch (err) {
      this.warn('scheduled work failed to stop', err)
    }
  }
}

/** The single process of SQLite mode: always the leader. */
export function soleLeader(warn: (message: string, err: unknown) => void = () => undefined): Leadership {
  const tasks = new LeaderTasks(warn)
  tasks.lead()
  return {
    get isLeader() {
      return tasks.isLeader
    },
    whileLeader: (task) => tasks.add(task),
    close: async () => tasks.follow(),
  }
}
