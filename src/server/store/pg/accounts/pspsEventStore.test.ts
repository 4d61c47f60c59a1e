import { describe, expect, it } from 'vitest'
import type { PspsEventCircuitInput } from '../../pspsEventStore'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from './testing/bothAccountStores'

const circuits: PspsEventCircuitInput[] = [
  {
    circuit: 'B-2',
    customers: { residential: 10, commercial: 2, industrial: null, other: 0, total: 12 },
    medicalBaseline: 1,
    criticalFacilities: { hospital: 1 },
  },
  {
    circuit: 'A-1',
    customers: { residential: null, commercial: null, industrial: null, other: 40, total: 40 },
    medicalBaseline: null,
    criticalFacilities: {},
  },
]
const op = { memberId: 'm-op', ip: '10.0.0.1' }

describe.each(ACCOUNT_STORE_KINDS)('PspsEventStore (%s)', (kind) => {
  const t = accountStoresFor(kind)

  it('keeps an event, its circuits in their order, phases and periods; lists newest first', async () => {
    const s = t.stores.pspsEvents
    const first = await s.create('First', circuits, op, 1000)
    const second = await s.create('Second', circuits.slice(1), op, 2000)
    expect(first).toMatchObject({
      name: 'First',
      phase: 'watch',
      createdAt: 1000,
      createdBy: 'm-op',
      updatedAt: 1000,
    })
    expect(first.phases).toEqual([{ phase: 'watch', at: 1000, by: 'm-op' }])
    expect(first.circuits).toEqual(circuits.map((c) => ({ ...c, periods: [] })))
    const period = {
      period: 1,
      deenergizedAt: 5000,
      patrolledAt: null,
      restoredAt: 9000,
      damageFound: false,
      notes: 'ok',
      recordedBy: 'm-op',
      recordedAt: 9500,
    }
    expect(await s.savePeriod(first.id, 'A-1', period, null, { restoredAt: 'x' }, op, 9500)).toBe(true)
    const second2 = {
      ...period,
      period: 2,
      deenergizedAt: 9600,
      restoredAt: null,
      damageFound: null,
      notes: null,
    }
    expect(await s.savePeriod(first.id, 'A-1', second2, null, {}, op, 9700)).toBe(true)
    const corrected = { ...period, damageFound: true, recordedAt: 9800 }
    expect(
      await s.savePeriod(first.id, 'A-1', corrected, { recordedAt: 9500, recordedBy: 'm-op' }, {}, op, 9800),
    ).toBe(true)
    // Compare and set: a period recorded again meanwhile, or a new period that exists already, is not written.
    const stale = { ...period, notes: 'stale', recordedAt: 9900 }
    expect(
      await s.savePeriod(first.id, 'A-1', stale, { recordedAt: 9500, recordedBy: 'm-op' }, {}, op, 9900),
    ).toBe(false)
    expect(await s.savePeriod(first.id, 'A-1', stale, null, {}, op, 9900)).toBe(false)
    const read = await s.get(first.id)
    expect(
      read?.circuits[1]?.periods.map((p) => [
        p.period,
        p.deenergizedAt,
        p.restoredAt,
        p.damageFound,
        p.notes,
      ]),
    ).toEqual([
      [1, 5000, 9000, true, 'ok'],
      [2, 9600, null, null, null],
    ])
    expect(read?.updatedAt).toBe(9800)
    expect((await s.list()).map((e) => [e.id, e.circuitCount])).toEqual([
      [second.id, 1],
      [first.id, 2],
    ])
    expect(await s.get(first.id + second.id + 10)).toBeNull()
    expect(await t.count('identity_audit')).toBe(5)
  })

  it('changes a phase only over the phase the caller read (compare and set)', async () => {
    const s = t.stores.pspsEvents
    const e = await s.create('CAS', circuits, op, 1000)
    expect(await s.changePhase(e.id, 'watch', 'warning', op, 2000)).toBe(true)
    // A second member who also read `watch` loses: nothing written, nothing audited.
    expect(await s.changePhase(e.id, 'watch', 'closed', { memberId: 'm-other', ip: null }, 2001)).toBe(false)
    const read = await s.get(e.id)
    expect(read?.phase).toBe('warning')
    expect(read?.phases).toEqual([
      { phase: 'watch', at: 1000, by: 'm-op' },
      { phase: 'warning', at: 2000, by: 'm-op' },
    ])
    const audit = (await t.stores.members.auditLog(10)).filter((a) => a.event === 'psps.event.phase')
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({
      memberId: 'm-op',
      subject: `psps-event:${e.id}`,
      ip: '10.0.0.1',
      detail: { from: 'watch', to: 'warning' },
    })
  })

  it('answers the notifications sent in a window, oldest first', async () => {
    const s = t.stores.pspsEvents
    const line = {
      jobId: null,
      memberId: 'm',
      channel: 'sms',
      kind: 'alert',
      alertIds: ['a'],
      attempt: 1,
      detail: null,
    }
    await t.stores.delivery.log({ ...line, at: 300, event: 'sent' })
    await t.stores.delivery.log({ ...line, at: 100, event: 'sent' })
    await t.stores.delivery.log({ ...line, at: 200, event: 'failed' })
    await t.stores.delivery.log({ ...line, at: 400, event: 'sent' })
    expect((await s.deliveries(100, 400, 10)).map((d) => d.at)).toEqual([100, 300])
    expect((await s.deliveries(0, 1000, 1)).map((d) => d.at)).toEqual([100])
  })
})
