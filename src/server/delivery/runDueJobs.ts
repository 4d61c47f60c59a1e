import type { DeliverySettings } from '../../shared/config'
import type { DeliveryJob, DeliveryStore } from '../store/deliveryStore'
import type { SendAlertMessage } from './alertChannels'

const DEFAULT_RETRY = { attempts: 5, backoffSeconds: 30 }

/** Wait before attempt `attempt + 1` after `attempt` failed: backoff, doubling each time. */
export function retryDelayMs(retry: DeliverySettings['retry'], attempt: number): number {
  const { backoffSeconds } = retry ?? DEFAULT_RETRY
  return backoffSeconds * 1000 * 2 ** Math.max(0, attempt - 1)
}

/**
 * Sends every job due at `at` (in parallel): a success is logged `sent`; a failure is logged
 * `failed` with the reason and retried after the backoff, until the configured attempts are used
 * (`gave_up`).
 */
export async function runDueJobs(
  store: DeliveryStore,
  send: SendAlertMessage,
  retry: DeliverySettings['retry'],
  at: number,
): Promise<void> {
  const attempts = (retry ?? DEFAULT_RETRY).attempts
  await Promise.all((await store.dueJobs(at)).map((job) => runJob(store, send, job, attempts, retry, at)))
}

async function runJob(
  store: DeliveryStore,
  send: SendAlertMessage,
  job: DeliveryJob,
  maxAttempts: number,
  retry: DeliverySettings['retry'],
  at: number,
): Promise<void> {
  const attempt = job.attempts + 1
  const entry = {
    jobId: job.id,
    memberId: job.memberId,
    channel: job.channel,
    kind: job.kind,
    alertIds: job.alertIds,
    attempt,
  }
  // Claimed before sending (atomically), so an overlapping run — on any server — cannot send it twice.
  if (!(await store.claimJob(job.id, attempt, at))) return
  try {
    await send({
      channel: job.channel,
      to: job.recipient,
      memberId: job.memberId,
      kind: job.kind,
      alertIds: job.alertIds,
      subject: job.subject,
      text: job.text,
      link: job.link,
    })
    await store.updateJob(job.id, 'sent', attempt, at)
    await store.log({ ...entry, at, event: 'sent', detail: null })
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    if (attempt >= maxAttempts) {
      await store.updateJob(job.id, 'failed', attempt, at)
      await store.log({ ...entry, at, event: 'gave_up', detail: `${reason}; ${attempt} attempts` })
      return
    }
    const next = at + retryDelayMs(retry, attempt)
    await store.updateJob(job.id, 'queued', attempt, next)
    await store.log({
      ...entry,
      at,
      event: 'failed',
      detail: `${reason}; retry at ${new Date(next).toISOString()}`,
    })
  }
}
