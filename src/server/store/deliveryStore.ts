import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import type { DeliveryJob, DeliveryLogEntry, Notice } from './deliveryRecords'
import { insertInto, sqliteCodec as codec } from './rows/codec'
import * as deliveryRow from './rows/deliveryRows'

export type { DeliveryJob, DeliveryLogEntry, Notice } from './deliveryRecords'

type NoticeKey = Pick<Notice, 'memberId' | 'alertId' | 'episode'>

const { notice: toNotice, job: toJob, log: toLog } = deliveryRow.deliveryRowMappers(codec)

/** Alert episodes, notices, send jobs and the delivery log (the alert delivery engine's store). */
export interface DeliveryStore {
  /**
   * Runs `fn` in one transaction (many small writes: one commit; all or nothing). `fn` awaits only
   * this store's methods (the SQLite store's transaction must not wait on anything else).
   */
  inTransaction<T>(fn: () => Promise<T>): Promise<T>
  /** Jobs a stopped server was sending go back to the queue (a message may then go twice, never zero times). */
  requeueInterrupted(): Awaitable<number>
  /** alert id → current episode, for every alert raised and not cleared. */
  activeEpisodes(): Awaitable<Map<string, number>>
  /** Starts an episode for each raised alert and ends the cleared ones; answers the new episodes (one transaction). */
  transition(raised: string[], cleared: string[], at: number): Awaitable<Map<string, number>>
  /** Queues a notice; false when the member already has this episode (never told twice). */
  queueNotice(n: Omit<Notice, 'state' | 'sentAt' | 'reminders' | 'nextReminderAt'>): Awaitable<boolean>
  waitingNotices(): Awaitable<Notice[]>
  dueReminders(now: number): Awaitable<Notice[]>
  updateNotice(key: NoticeKey, change: deliveryRow.NoticeChange): Awaitable<void>
  /** Whether the member acknowledged the alert in the app (alert_acks, migration 080). */
  acknowledged(memberId: string, alertId: string): Awaitable<boolean>
  addJob(job: Omit<DeliveryJob, 'id' | 'attempts' | 'state'>, at: number): Awaitable<number>
  dueJobs(now: number): Awaitable<DeliveryJob[]>
  /**
   * Claims a queued job for sending (state `sending`, attempts and next time set); false when it
   * is no longer queued (another run claimed it), so no job is sent twice by overlapping runs.
   */
  claimJob(id: number, attempts: number, at: number): Awaitable<boolean>
  /** When the next queued job is due (ms), or null when none waits. */
  nextJobAt(): Awaitable<number | null>
  updateJob(id: number, state: string, attempts: number, nextAt: number): Awaitable<void>
  log(e: Omit<DeliveryLogEntry, 'id'>): Awaitable<void>
  /** Deletes log lines, finished jobs and notices of ended episodes older than `before` (ms). */
  prune(before: number): Awaitable<void>
  /** Newest first. */
  recentLog(limit: number): Awaitable<DeliveryLogEntry[]>
}

/** Alert episodes, notices, send jobs and the delivery log of the accounts database (migration 110). */
export function createDeliveryStore(db: Database.Database): DeliveryStore {
  const active = db.prepare<[], { alert_id: string; episode: number }>(
    'SELECT alert_id, episode FROM alert_episodes WHERE active = 1',
  )
  const episodeOf = db
    .prepare<[string], number>('SELECT episode FROM alert_episodes WHERE alert_id = ?')
    .pluck()
  const raise = db.prepare(
    `INSERT INTO alert_episodes (alert_id, episode, active, raised_at, cleared_at) VALUES (?, 1, 1, ?, NULL)
     ON CONFLICT(alert_id) DO UPDATE SET episode = episode + 1, active = 1, raised_at = excluded.raised_at, cleared_at = NULL
     WHERE active = 0`,
  )
  const clear = db.prepare('UPDATE alert_episodes SET active = 0, cleared_at = ? WHERE alert_id = ?')
  const insertNotice = db.prepare(
    insertInto(codec, 'alert_notices', deliveryRow.NOTICE_COLUMNS).replace(/^INSERT/, 'INSERT OR IGNORE'),
  )
  const noticesIn = db.prepare<[], deliveryRow.NoticeRow>(
    "SELECT * FROM alert_notices WHERE state IN ('pending', 'held') ORDER BY member_id, queued_at, alert_id",
  )
  const remindersDue = db.prepare<[number], deliveryRow.NoticeRow>(
    "SELECT * FROM alert_notices WHERE state = 'sent' AND next_reminder_at IS NOT NULL AND next_reminder_at <= ? ORDER BY member_id, alert_id",
  )
  const setNotice = db.prepare(
    `UPDATE alert_notices SET state = ?, sent_at = coalesce(?, sent_at), reminders = ?, next_reminder_at = ?
     WHERE member_id = ? AND alert_id = ? AND episode = ?`,
  )
  const acked = db
    .prepare<[string, string], number>('SELECT 1 FROM alert_acks WHERE alert_id = ? AND member_id = ?')
    .pluck()
  const insertJob = db.prepare(insertInto(codec, 'delivery_jobs', deliveryRow.JOB_COLUMNS))
  const jobsDue = db.prepare<[number], deliveryRow.JobRow>(
    "SELECT * FROM delivery_jobs WHERE state = 'queued' AND next_at <= ? ORDER BY next_at, id",
  )
  const nextJob = db
    .prepare<[], number>("SELECT min(next_at) FROM delivery_jobs WHERE state = 'queued'")
    .pluck()
  const setJob = db.prepare('UPDATE delivery_jobs SET state = ?, attempts = ?, next_at = ? WHERE id = ?')
  const insertLog = db.prepare(insertInto(codec, 'delivery_log', deliveryRow.LOG_COLUMNS))
  const readLog = db.prepare<[number], deliveryRow.LogRow>(
    'SELECT * FROM delivery_log ORDER BY id DESC LIMIT ?',
  )

  /** Starts an episode for each raised alert and ends the cleared ones; answers the new episodes. */
  const transition = db.transaction((raised: string[], cleared: string[], at: number) => {
    for (const id of cleared) clear.run(at, id)
    const episodes = new Map<string, number>()
    for (const id of raised) {
      // Already active (raised meanwhile by another process sharing the database): not new.
      if (raise.run(id, at).changes > 0) episodes.set(id, Number(episodeOf.get(id) ?? 1))
    }
    return episodes
  })

  const pruneLog = db.prepare('DELETE FROM delivery_log WHERE at < ?')
  const pruneJobs = db.prepare(
    "DELETE FROM delivery_jobs WHERE state IN ('sent', 'failed') AND created_at < ?",
  )
  // Past notices: their episode is over (or they were dropped); the current episode's stay.
  const pruneNotices = db.prepare(
    `DELETE FROM alert_notices WHERE queued_at < ? AND NOT EXISTS (SELECT 1 FROM alert_episodes e
       WHERE e.alert_id = alert_notices.alert_id AND e.episode = alert_notices.episode AND e.active = 1)`,
  )
  const pruneAll = db.transaction((before: number): void => {
    pruneLog.run(before)
    pruneJobs.run(before)
    pruneNotices.run(before)
  })
  const requeue = db.prepare("UPDATE delivery_jobs SET state = 'queued' WHERE state = 'sending'")
  const claim = db.prepare(
    "UPDATE delivery_jobs SET state = 'sending', attempts = ?, next_at = ? WHERE id = ? AND state = 'queued'",
  )

  /**
   * BEGIN … COMMIT around an async `fn` whose awaits are this store's synchronous methods only, so
   * nothing else runs on the connection in between; nested calls join the outer transaction.
   */
  async function inTransaction<T>(fn: () => Promise<T>): Promise<T> {
    if (db.inTransaction) return fn()
    db.exec('BEGIN')
    try {
      const result = await fn()
      db.exec('COMMIT')
      return result
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK')
      throw err
    }
  }

  return {
    /** Runs `fn` in one transaction (many small writes: one commit). */
    inTransaction: <T>(fn: () => Promise<T>): Promise<T> => inTransaction(fn),
    /** Jobs a stopped server was sending go back to the queue (a message may then go twice, never zero times). */
    requeueInterrupted: (): number => requeue.run().changes,
    /** alert id → current episode, for every alert raised and not cleared. */
    activeEpisodes: (): Map<string, number> => new Map(active.all().map((r) => [r.alert_id, r.episode])),
    transition: (raised: string[], cleared: string[], at: number): Map<string, number> =>
      transition(raised, cleared, at),
    /** Queues a notice; false when the member already has this episode (never told twice). */
    queueNotice(n: Omit<Notice, 'state' | 'sentAt' | 'reminders' | 'nextReminderAt'>): boolean {
      return insertNotice.run(deliveryRow.noticeToParams(codec, n)).changes > 0
    },
    waitingNotices: (): Notice[] => noticesIn.all().map(toNotice),
    dueReminders: (now: number): Notice[] => remindersDue.all(now).map(toNotice),
    updateNotice(key: NoticeKey, change: deliveryRow.NoticeChange): void {
      setNotice.run(...deliveryRow.noticeUpdateParams(key, change))
    },
    /** Whether the member acknowledged the alert in the app (alert_acks, migration 080). */
    acknowledged: (memberId: string, alertId: string): boolean => acked.get(alertId, memberId) !== undefined,
    addJob(job: Omit<DeliveryJob, 'id' | 'attempts' | 'state'>, at: number): number {
      const r = insertJob.run(deliveryRow.jobToParams(codec, job, at))
      return Number(r.lastInsertRowid)
    },
    dueJobs: (now: number): DeliveryJob[] => jobsDue.all(now).map(toJob),
    claimJob: (id: number, attempts: number, at: number): boolean => claim.run(attempts, at, id).changes > 0,
    /** When the next queued job is due (ms), or null when none waits. */
    nextJobAt: (): number | null => {
      const v = nextJob.get()
      return typeof v === 'number' ? v : null
    },
    updateJob(id: number, state: string, attempts: number, nextAt: number): void {
      setJob.run(state, attempts, nextAt, id)
    },
    log(e: Omit<DeliveryLogEntry, 'id'>): void {
      insertLog.run(deliveryRow.logToParams(codec, e))
    },
    /** Deletes log lines, finished jobs and notices of ended episodes older than `before` (ms). */
    prune: (before: number): void => pruneAll(before),
    /** Newest first. */
    recentLog: (limit: number): DeliveryLogEntry[] => readLog.all(limit).map(toLog),
  }
}
