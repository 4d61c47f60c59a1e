import { insertInto, pgCodec as codec } from '../../rows/codec'
import * as deliveryRow from '../../rows/deliveryRows'
import type { DeliveryJob, DeliveryLogEntry, DeliveryStore, Notice } from '../../deliveryStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe, storableText } from './nulSafe'
import { retryConflicts } from './retryConflicts'

const { notice: noticeOf, job: jobOf, log: logOf } = deliveryRow.deliveryRowMappers(codec)

/** A LIMIT as SQLite takes it: negative is no limit. */
const limitOf = (n: number) => (n < 0 ? null : Math.floor(n))

/** Alert episodes, notices, send jobs and the delivery log in the shared PostgreSQL database. */
export function createPgDeliveryStore(pg: PgDatabase): DeliveryStore {
  const db = nulSafe(pg)
  return {
    /** One transaction: every store call `fn` awaits joins it (PgDatabase.tx). */
    inTransaction: <T>(fn: () => Promise<T>): Promise<T> => db.tx(fn),
    requeueInterrupted: (): Promise<number> =>
      db.run("UPDATE delivery_jobs SET state = 'queued' WHERE state = 'sending'"),
    async activeEpisodes(): Promise<Map<string, number>> {
      const rows = await db.query<{ alert_id: string; episode: number }>(
        'SELECT alert_id, episode FROM alert_episodes WHERE active',
      )
      return new Map(rows.map((r) => [r.alert_id, r.episode]))
    },
    /**
     * One transaction: the clears, then one upsert that starts a new episode for each raised alert
     * that is not active, so two servers raising the same alert at once start one episode between
     * them (rows taken in id order; a deadlock with another server's transition is retried).
     */
    transition(raised: string[], cleared: string[], at: number): Promise<Map<string, number>> {
      const toRaise = [...new Set(raised)].sort()
      return retryConflicts(() =>
        db.tx(async () => {
          if (cleared.length > 0)
            await db.run(
              'UPDATE alert_episodes SET active = false, cleared_at = $1 WHERE alert_id = ANY($2::text[])',
              [at, cleared],
            )
          if (toRaise.length === 0) return new Map<string, number>()
          // Already active (raised meanwhile by another server): not new, no row returned.
          const rows = await db.query<{ alert_id: string; episode: number }>(
            `INSERT INTO alert_episodes AS e (alert_id, episode, active, raised_at, cleared_at)
             SELECT id, 1, true, $2, NULL FROM unnest($1::text[]) AS id ORDER BY id
             ON CONFLICT (alert_id) DO UPDATE SET episode = e.episode + 1, active = true,
               raised_at = excluded.raised_at, cleared_at = NULL
             WHERE NOT e.active
             RETURNING alert_id, episode`,
            [toRaise, at],
          )
          const started = new Map(rows.map((r) => [r.alert_id, r.episode]))
          // In the order raised, as the SQLite store answers.
          const episodes = new Map<string, number>()
          for (const id of raised) {
            const episode = started.get(storableText(id))
            if (episode !== undefined) episodes.set(id, episode)
          }
          return episodes
        }),
      )
    },
    async queueNotice(
      n: Omit<Notice, 'state' | 'sentAt' | 'reminders' | 'nextReminderAt'>,
    ): Promise<boolean> {
      const count = await db.run(
        `${insertInto(codec, 'alert_notices', deliveryRow.NOTICE_COLUMNS)} ON CONFLICT DO NOTHING`,
        deliveryRow.noticeToParams(codec, n),
      )
      return count > 0
    },
    async waitingNotices(): Promise<Notice[]> {
      const rows = await db.query<deliveryRow.NoticeRow>(
        "SELECT * FROM alert_notices WHERE state IN ('pending', 'held') ORDER BY member_id, queued_at, alert_id",
      )
      return rows.map(noticeOf)
    },
    async dueReminders(now: number): Promise<Notice[]> {
      const rows = await db.query<deliveryRow.NoticeRow>(
        `SELECT * FROM alert_notices WHERE state = 'sent' AND next_reminder_at IS NOT NULL
           AND next_reminder_at <= $1 ORDER BY member_id, alert_id`,
        [now],
      )
      return rows.map(noticeOf)
    },
    async updateNotice(key, change): Promise<void> {
      await db.run(
        `UPDATE alert_notices SET state = $1, sent_at = coalesce($2, sent_at), reminders = $3, next_reminder_at = $4
         WHERE member_id = $5 AND alert_id = $6 AND episode = $7`,
        deliveryRow.noticeUpdateParams(key, change),
      )
    },
    async acknowledged(memberId: string, alertId: string): Promise<boolean> {
      const row = await db.one('SELECT 1 FROM alert_acks WHERE alert_id = $1 AND member_id = $2', [
        alertId,
        memberId,
      ])
      return row !== undefined
    },
    async addJob(job: Omit<DeliveryJob, 'id' | 'attempts' | 'state'>, at: number): Promise<number> {
      const row = await db.one<{ id: number }>(
        `${insertInto(codec, 'delivery_jobs', deliveryRow.JOB_COLUMNS)} RETURNING id`,
        deliveryRow.jobToParams(codec, job, at),
      )
      if (!row) throw new Error('delivery job not stored')
      return row.id
    },
    async dueJobs(now: number): Promise<DeliveryJob[]> {
      const rows = await db.query<deliveryRow.JobRow>(
        "SELECT * FROM delivery_jobs WHERE state = 'queued' AND next_at <= $1 ORDER BY next_at, id",
        [now],
      )
      return rows.map(jobOf)
    },
    /** One statement: of two servers claiming the same job, exactly one gets it. */
    async claimJob(id: number, attempts: number, at: number): Promise<boolean> {
      const n = await db.run(
        "UPDATE delivery_jobs SET state = 'sending', attempts = $1, next_at = $2 WHERE id = $3 AND state = 'queued'",
        [attempts, at, id],
      )
      return n > 0
    },
    async nextJobAt(): Promise<number | null> {
      const row = await db.one<{ at: number | null }>(
        "SELECT min(next_at) AS at FROM delivery_jobs WHERE state = 'queued'",
      )
      return row?.at ?? null
    },
    async updateJob(id: number, state: string, attempts: number, nextAt: number): Promise<void> {
      await db.run('UPDATE delivery_jobs SET state = $1, attempts = $2, next_at = $3 WHERE id = $4', [
        state,
        attempts,
        nextAt,
        id,
      ])
    },
    async log(e: Omit<DeliveryLogEntry, 'id'>): Promise<void> {
      await db.run(
        insertInto(codec, 'delivery_log', deliveryRow.LOG_COLUMNS),
        deliveryRow.logToParams(codec, e),
      )
    },
    prune(before: number): Promise<void> {
      return db.tx(async () => {
        await db.run('DELETE FROM delivery_log WHERE at < $1', [before])
        await db.run("DELETE FROM delivery_jobs WHERE state IN ('sent', 'failed') AND created_at < $1", [
          before,
        ])
        // Past notices: their episode is over (or they were dropped); the current episode's stay.
        await db.run(
          `DELETE FROM alert_notices n WHERE queued_at < $1 AND NOT EXISTS (SELECT 1 FROM alert_episodes e
             WHERE e.alert_id = n.alert_id AND e.episode = n.episode AND e.active)`,
          [before],
        )
      })
    },
    async recentLog(limit: number): Promise<DeliveryLogEntry[]> {
      const rows = await db.query<deliveryRow.LogRow>(
        'SELECT * FROM delivery_log ORDER BY id DESC LIMIT $1',
        [limitOf(limit)],
      )
      return rows.map(logOf)
    },
  }
}
