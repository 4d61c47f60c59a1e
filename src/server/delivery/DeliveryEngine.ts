import type { DeliverySettings } from '../../shared/config'
import type { AlertsEvaluation } from '../alerts'
import type { AlertSubscription, AlertSubscriptionStore } from '../store/alertSubscriptionStore'
import type { Awaitable } from '../store/Awaitable'
import type { DeliveryStore, Notice } from '../store/deliveryStore'
import type { AlertChannel, SendAlertMessage } from './alertChannels'
import { composeMessage } from './composeMessage'
import { alertFields } from './messageFields'
import { inQuietHours } from './quietHours'
import { runDueJobs } from './runDueJobs'

/** Where a member's messages go. */
export interface Recipient {
  phone: string | null
  email: string | null
  active: boolean
}

export interface DeliveryEngineOptions {
  settings: DeliverySettings
  /** Severity labels by id (alerts.severities). */
  severityLabels: ReadonlyMap<string, string>
  store: DeliveryStore
  subscriptions: AlertSubscriptionStore
  recipient: (memberId: string) => Awaitable<Recipient | null>
  send: SendAlertMessage
  /** Base of links in messages, e.g. https://emberline.example.org */
  baseUrl: string
  /** Time zone of quiet hours and of times in messages. */
  timeZone: string
  now: () => number
  /** Problems that must not stop delivery (a failed tick). */
  warn?: (message: string, err: unknown) => void
}

const MINUTE_MS = 60_000
/** The delivery log, finished jobs and past notices are kept this long (90 days). */
const RETENTION_MS = 90 * 24 * 60 * MINUTE_MS
const PRUNE_EVERY_MS = 60 * MINUTE_MS

const channelsOf = (sub: AlertSubscription, offered: readonly AlertChannel[]): AlertChannel[] =>
  (sub.channel === 'both' ? (['sms', 'email'] as const) : [sub.channel]).filter((c) => offered.includes(c))

function byMember(notices: readonly Notice[]): Map<string, Notice[]> {
  const out = new Map<string, Notice[]>()
  for (const n of notices) out.set(n.memberId, [...(out.get(n.memberId) ?? []), n])
  return out
}

/**
 * Turns evaluations into messages: every alert raised (a new episode) is queued once per member
 * whose subscription matches its rule and severity; `tick` sends what is due — a digest window
 * after the first queued alert, outside quiet hours unless the severity bypasses them — as one
 * message (a digest when several), reminds members of delivered alerts they have not acknowledged,
 * and runs the send jobs with retries. Evaluation never waits for a send.
 */
export class DeliveryEngine {
  private lastIds: Set<string> | null = null
  private prunedAt = Number.NEGATIVE_INFINITY
  /** Jobs a stopped leader was sending are requeued once, by the first tick of this engine. */
  private requeued = false
  /**
   * The engine's transactions (an observation's record, a tick's flush and reminders) run one
   * after another: each reads what the previous one wrote, and none joins another's transaction.
   */
  private writing: Promise<unknown> = Promise.resolve()
  private running: Promise<void> = Promise.resolve()
  private readonly bypass: Set<string>

  constructor(private readonly o: DeliveryEngineOptions) {
    const first = [...o.severityLabels.keys()][0]
    this.bypass = new Set(o.settings.bypassQuietHours ?? (first ? [first] : []))
  }

  /**
   * Records raised and cleared alerts and queues notices; true when the set of alerts changed.
   * Calls run one after another; a failed one rejects (and is retried by the next evaluation).
   */
  observe(evaluation: AlertsEvaluation, at = this.o.now()): Promise<boolean> {
    return this.exclusive(() => this.record(evaluation, at))
  }

  /** Runs `fn` after every transaction queued before it (see `writing`). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writing.then(fn)
    this.writing = run.catch(() => undefined)
    return run
  }

  private async record(evaluation: AlertsEvaluation, at: number): Promise<boolean> {
    const ids = new Set(evaluation.alerts.map((a) => a.id))
    if (this.lastIds && ids.size === this.lastIds.size && [...ids].every((id) => this.lastIds?.has(id)))
      return false
    const active = await this.o.store.activeEpisodes()
    const raised = [...ids].filter((id) => !active.has(id))
    const cleared = [...active.keys()].filter((id) => !ids.has(id))
    if (raised.length === 0 && cleared.length === 0) {
      this.lastIds = ids
      return false
    }
    const episodes = await this.o.store.transition(raised, cleared, at)
    const subscriptions = await this.o.subscriptions.all()
    await this.o.store.inTransaction(async () => {
      for (const alert of evaluation.alerts) {
        const episode = episodes.get(alert.id)
        if (episode === undefined) continue
        const fields = alertFields(alert, {
          severityLabel: this.o.severityLabels.get(alert.severity) ?? alert.severity,
          baseUrl: this.o.baseUrl,
          timeZone: this.o.timeZone,
        })
        for (const [memberId, sub] of subscriptions) {
          if (!sub.rules.includes(alert.ruleId) || !sub.severities.includes(alert.severity)) continue
          await this.o.store.queueNotice({
            memberId,
            alertId: alert.id,
            episode,
            severity: alert.severity,
            fields,
            queuedAt: at,
          })
        }
      }
    })
    // Only once recorded: a failed write is retried by the next evaluation.
    this.lastIds = ids
    return true
  }

  /** Sends what is due at `at`; ticks run one after another. */
  tick(at = this.o.now()): Promise<void> {
    this.running = this.running
      .then(async () => {
        if (!this.requeued) {
          this.requeued = true
          await this.o.store.requeueInterrupted()
        }
        // After the observations queued so far (an evaluation just before a tick is seen by it).
        await this.exclusive(() =>
          this.o.store.inTransaction(async () => {
            await this.flush(at)
            await this.remind(at)
          }),
        )
        if (at - this.prunedAt >= PRUNE_EVERY_MS) {
          this.prunedAt = at
          await this.o.store.prune(at - RETENTION_MS)
        }
        await runDueJobs(this.o.store, this.o.send, this.o.settings.retry, at)
      })
      .catch((err: unknown) => this.o.warn?.('alert delivery tick failed', err))
    return this.running
  }

  /** Notices that can no longer be sent leave the queue (logged); answers the rest. */
  private async stillWanted(
    notices: Notice[],
    sub: AlertSubscription | undefined,
    active: ReadonlyMap<string, number>,
    at: number,
  ): Promise<Notice[]> {
    const wantedNow: Notice[] = []
    for (const n of notices) {
      const wanted = sub && sub.rules.includes(n.fields.rule ?? '') && sub.severities.includes(n.severity)
      const state = !wanted
        ? 'unsubscribed'
        : active.get(n.alertId) !== n.episode
          ? 'cleared'
          : (await this.o.store.acknowledged(n.memberId, n.alertId))
            ? 'acknowledged'
            : null
      if (state === null) {
        wantedNow.push(n)
        continue
      }
      await this.o.store.updateNotice(n, { state, reminders: n.reminders, nextReminderAt: null })
      await this.logNotice(n, state, at, null)
    }
    return wantedNow
  }

  private async flush(at: number): Promise<void> {
    const subscriptions = await this.o.subscriptions.all()
    const windowMs = this.o.settings.digestWindowMinutes * MINUTE_MS
    const active = await this.o.store.activeEpisodes()
    for (const [memberId, waiting] of byMember(await this.o.store.waitingNotices())) {
      const sub = subscriptions.get(memberId)
      const live = await this.stillWanted(waiting, sub, active, at)
      if (!sub || live.length === 0) continue
      if (at < Math.min(...live.map((n) => n.queuedAt)) + windowMs) continue
      const sendable = await this.outsideQuiet(live, sub, at)
      if (sendable.length === 0) continue
      await this.dispatch(memberId, sub, sendable, false, at)
      for (const n of sendable)
        await this.o.store.updateNotice(n, { state: 'sent', sentAt: at, ...this.nextReminder(0, at) })
    }
  }

  private async remind(at: number): Promise<void> {
    if (this.o.settings.reminderIntervalMinutes <= 0) return
    const subscriptions = await this.o.subscriptions.all()
    const active = await this.o.store.activeEpisodes()
    for (const [memberId, due] of byMember(await this.o.store.dueReminders(at))) {
      const sub = subscriptions.get(memberId)
      const live = await this.stillWanted(due, sub, active, at)
      if (!sub || live.length === 0) continue
      const sendable = await this.outsideQuiet(live, sub, at)
      if (sendable.length === 0) continue
      await this.dispatch(memberId, sub, sendable, true, at)
      for (const n of sendable)
        await this.o.store.updateNotice(n, { state: 'sent', ...this.nextReminder(n.reminders + 1, at) })
    }
  }

  private nextReminder(reminders: number, at: number): { reminders: number; nextReminderAt: number | null } {
    const interval = this.o.settings.reminderIntervalMinutes * MINUTE_MS
    const more = interval > 0 && reminders < (this.o.settings.maxReminders ?? 3)
    return { reminders, nextReminderAt: more ? at + interval : null }
  }

  /** During quiet hours only bypassing severities pass; the others are held (logged once). */
  private async outsideQuiet(notices: Notice[], sub: AlertSubscription, at: number): Promise<Notice[]> {
    if (!inQuietHours(sub.quietHours, at, this.o.timeZone)) return notices
    const bypassing: Notice[] = []
    for (const n of notices) {
      if (this.bypass.has(n.severity)) {
        bypassing.push(n)
        continue
      }
      if (n.state === 'pending') {
        await this.o.store.updateNotice(n, {
          state: 'held',
          reminders: n.reminders,
          nextReminderAt: n.nextReminderAt,
        })
        await this.logNotice(n, 'held', at, `quiet hours ${sub.quietHours?.start}–${sub.quietHours?.end}`)
      }
    }
    return bypassing
  }

  private async logNotice(n: Notice, event: string, at: number, detail: string | null): Promise<void> {
    await this.o.store.log({
      at,
      jobId: null,
      memberId: n.memberId,
      channel: null,
      kind: 'alert',
      alertIds: [n.alertId],
      event,
      attempt: null,
      detail,
    })
  }

  /** Queues one message per chosen channel (sent by the next job run, retried on failure). */
  private async dispatch(
    memberId: string,
    sub: AlertSubscription,
    notices: Notice[],
    reminder: boolean,
    at: number,
  ): Promise<void> {
    const message = composeMessage(this.o.settings.templates, notices, {
      reminder,
      alertsUrl: `${this.o.baseUrl.replace(/\/+$/, '')}/Alerts`,
    })
    const who = await this.o.recipient(memberId)
    for (const channel of channelsOf(sub, this.o.settings.channels)) {
      const to = who?.active ? (channel === 'sms' ? who.phone : who.email) : null
      const entry = { at, memberId, channel, kind: message.kind, alertIds: message.alertIds, attempt: null }
      if (!to) {
        await this.o.store.log({
          ...entry,
          jobId: null,
          event: 'no_recipient',
          detail: `no ${channel} address`,
        })
        continue
      }
      const jobId = await this.o.store.addJob(
        {
          memberId,
          channel,
          kind: message.kind,
          alertIds: message.alertIds,
          recipient: to,
          subject: channel === 'email' ? message.subject : null,
          text: channel === 'email' ? message.email : message.sms,
          link: message.link,
          nextAt: at,
        },
        at,
      )
      await this.o.store.log({ ...entry, jobId, event: 'queued', detail: null })
    }
  }
}
