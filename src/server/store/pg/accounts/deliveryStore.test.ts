import { describe, expect, it } from 'vitest'
import type { DeliveryJob } from '../../deliveryStore'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from './testing/bothAccountStores'

const job = (memberId: string, nextAt: number): Omit<DeliveryJob, 'id' | 'attempts' | 'state'> => ({
  memberId,
  channel: 'email',
  kind: 'alert',
  alertIds: ['r:2', 'r:1'],
  recipient: `${memberId}@example.com`,
  subject: 'Alert',
  text: 'Fire weather',
  link: 'https://emberline.test/operations',
  nextAt,
})

describe.each(ACCOUNT_STORE_KINDS)('DeliveryStore (%s)', (kind) => {
  const t = accountStoresFor(kind)

  it('starts an episode per raise, none while active, a new one after a clear', async () => {
    const { delivery } = t.stores
    expect([...(await delivery.transition(['a', 'b'], [], 1000))]).toEqual([
      ['a', 1],
      ['b', 1],
    ])
    expect([...(await delivery.transition(['a'], [], 2000))]).toEqual([])
    expect([...(await delivery.transition([], ['a'], 3000))]).toEqual([])
    expect([...(await delivery.activeEpisodes())]).toEqual([['b', 1]])
    expect([...(await delivery.transition(['a'], ['b'], 4000))]).toEqual([['a', 2]])
    expect([...(await delivery.activeEpisodes())]).toEqual([['a', 2]])
    // Answered in the order raised; an alert raised twice starts one episode; cleared then raised
    // in one transition starts the next.
    expect([...(await delivery.transition(['z', 'c', 'z', 'a'], ['a'], 5000))]).toEqual([
      ['z', 1],
      ['c', 1],
      ['a', 3],
    ])
    // An id holding a NUL (from a feed's hazard key) is answered as raised.
    expect([...(await delivery.transition(['r:\0'], [], 6000))]).toEqual([['r:\0', 1]])
  })

  it('queues a notice once per member and episode, lists waiting ones and due reminders', async () => {
    const { delivery, acks } = t.stores
    const notice = (memberId: string, alertId: string, episode: number, queuedAt: number) => ({
      memberId,
      alertId,
      episode,
      severity: 'high',
      fields: { title: 'Red flag', area: 'North' },
      queuedAt,
    })
    expect(await delivery.queueNotice(notice('m-b', 'r:1', 1, 1000))).toBe(true)
    expect(await delivery.queueNotice(notice('m-b', 'r:1', 1, 2000))).toBe(false)
    expect(await delivery.queueNotice(notice('m-a', 'r:2', 1, 1500))).toBe(true)
    expect(await delivery.queueNotice(notice('m-a', 'r:1', 1, 1500))).toBe(true)
    const waiting = await delivery.waitingNotices()
    expect(waiting.map((n) => `${n.memberId}/${n.alertId}`)).toEqual(['m-a/r:1', 'm-a/r:2', 'm-b/r:1'])
    expect(waiting[2]).toEqual({
      ...notice('m-b', 'r:1', 1, 1000),
      state: 'pending',
      sentAt: null,
      reminders: 0,
      nextReminderAt: null,
    })
    expect(Object.keys(waiting[2]?.fields ?? {})).toEqual(['title', 'area'])

    await delivery.updateNotice(
      { memberId: 'm-b', alertId: 'r:1', episode: 1 },
      { state: 'sent', sentAt: 3000, reminders: 0, nextReminderAt: 5000 },
    )
    await delivery.updateNotice(
      { memberId: 'm-a', alertId: 'r:1', episode: 1 },
      { state: 'held', reminders: 0, nextReminderAt: null },
    )
    expect((await delivery.waitingNotices()).map((n) => `${n.memberId}/${n.alertId}/${n.state}`)).toEqual([
      'm-a/r:1/held',
      'm-a/r:2/pending',
    ])
    expect(await delivery.dueReminders(4999)).toEqual([])
    const due = await delivery.dueReminders(5000)
    expect(due.map((n) => [n.memberId, n.sentAt, n.nextReminderAt])).toEqual([['m-b', 3000, 5000]])
    // No sentAt in a change keeps the one stored.
    await delivery.updateNotice(
      { memberId: 'm-b', alertId: 'r:1', episode: 1 },
      { state: 'sent', reminders: 1, nextReminderAt: 9000 },
    )
    expect((await delivery.dueReminders(9000))[0]).toMatchObject({ sentAt: 3000, reminders: 1 })

    expect(await delivery.acknowledged('m-b', 'r:1')).toBe(false)
    await acks.acknowledge('r:1', { memberId: 'm-b', ip: null }, 6000)
    expect(await delivery.acknowledged('m-b', 'r:1')).toBe(true)
  })

  it('queues jobs, answers due ones, claims each once, requeues interrupted sends', async () => {
    const { delivery } = t.stores
    expect(await delivery.nextJobAt()).toBeNull()
    const first = await delivery.addJob(job('m-a', 2000), 1000)
    const second = await delivery.addJob(job('m-b', 1500), 1000)
    expect(second).toBeGreaterThan(first)
    expect(await delivery.nextJobAt()).toBe(1500)
    expect((await delivery.dueJobs(1999)).map((j) => j.id)).toEqual([second])
    expect(await delivery.dueJobs(2000)).toEqual([
      { ...job('m-b', 1500), id: second, attempts: 0, state: 'queued' },
      { ...job('m-a', 2000), id: first, attempts: 0, state: 'queued' },
    ])
    expect(await delivery.claimJob(second, 1, 2000)).toBe(true)
    expect(await delivery.claimJob(second, 1, 2000)).toBe(false)
    expect((await delivery.dueJobs(9999)).map((j) => j.id)).toEqual([first])
    expect(await delivery.requeueInterrupted()).toBe(1)
    expect((await delivery.dueJobs(9999)).map((j) => [j.id, j.attempts])).toEqual([
      [first, 0],
      [second, 1],
    ])
    await delivery.updateJob(first, 'sent', 1, 3000)
    await delivery.updateJob(second, 'queued', 2, 8000)
    expect(await delivery.nextJobAt()).toBe(8000)
    expect(await delivery.dueJobs(7999)).toEqual([])
  })

  it('writes the delivery log, newest first, and prunes what is old and over', async () => {
    const { delivery } = t.stores
    const entry = (at: number, event: string) => ({
      at,
      jobId: null,
      memberId: 'm-a',
      channel: 'sms',
      kind: 'alert',
      alertIds: ['r:1'],
      event,
      attempt: null,
      detail: null,
    })
    await delivery.log(entry(1000, 'queued'))
    await delivery.log({ ...entry(2000, 'sent'), jobId: 7, attempt: 1, detail: 'ok' })
    expect((await delivery.recentLog(10)).map(({ id: _id, ...e }) => e)).toEqual([
      { ...entry(2000, 'sent'), jobId: 7, attempt: 1, detail: 'ok' },
      entry(1000, 'queued'),
    ])
    expect(await delivery.recentLog(1)).toHaveLength(1)

    await delivery.transition(['old', 'live'], [], 100)
    await delivery.transition([], ['old'], 200)
    const notice = { memberId: 'm-a', severity: 'high', fields: {}, queuedAt: 100, episode: 1 }
    await delivery.queueNotice({ ...notice, alertId: 'old' })
    await delivery.queueNotice({ ...notice, alertId: 'live' })
    const sent = await delivery.addJob(job('m-a', 100), 100)
    const waiting = await delivery.addJob(job('m-a', 100), 100)
    await delivery.updateJob(sent, 'sent', 1, 100)

    await delivery.prune(1500)
    expect((await delivery.recentLog(10)).map((e) => e.event)).toEqual(['sent'])
    expect((await delivery.dueJobs(9999)).map((j) => j.id)).toEqual([waiting])
    expect((await delivery.waitingNotices()).map((n) => n.alertId)).toEqual(['live'])
  })

  it('runs a transaction all or nothing', async () => {
    const { delivery } = t.stores
    await expect(
      delivery.inTransaction(async () => {
        await delivery.transition(['a'], [], 1000)
        await delivery.addJob(job('m-a', 1000), 1000)
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect((await delivery.activeEpisodes()).size).toBe(0)
    expect(await delivery.nextJobAt()).toBeNull()
    const id = await delivery.inTransaction(async () => {
      await delivery.transition(['a'], [], 1000)
      return delivery.addJob(job('m-a', 1000), 1000)
    })
    expect(await delivery.nextJobAt()).toBe(1000)
    expect(typeof id).toBe('number')
  })
})
