import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import {
  type DeenergizationPeriod,
  type PspsEventCircuitInput,
  type PspsEventSummary,
  type PspsPhase,
  type StoredPspsEvent,
} from './pspsEventRecords'
import type { DeliveryLogEntry } from './deliveryStore'
import { deliveryRowMappers, type LogRow } from './rows/deliveryRows'
import { auditWriter, type AuditEntry } from './identityStore'
import * as eventRows from './rows/pspsEventRows'
import { insertInto, sqliteCodec as codec } from './rows/codec'

export type {
  CustomerCounts,
  DeenergizationPeriod,
  PspsEventCircuitInput,
  PspsEventSummary,
  PspsPhase,
  PspsPhaseChange,
  StoredPspsEvent,
  StoredPspsEventCircuit,
} from './pspsEventRecords'
export { PSPS_PHASES } from './pspsEventRecords'

export type PeriodVersion = Pick<DeenergizationPeriod, 'recordedAt' | 'recordedBy'>

/** Who made a change, for the audit log. */
export interface PspsActor {
  memberId: string
  ip: string | null
}

/**
 * PSPS events (tables psps_events, psps_event_phases, psps_event_circuits, psps_circuit_periods;
 * accounts migration 150 / PostgreSQL accounts 003). Every write is audited in identity_audit in
 * the same transaction. The rules (which phase may follow which, which times are valid) are the
 * routes'; the store keeps what it is given, but a phase change only applies over the phase the
 * caller read (compare and set), so two people changing one event at once cannot both win.
 */
export interface PspsEventStore {
  create(
    name: string,
    circuits: readonly PspsEventCircuitInput[],
    actor: PspsActor,
    at: number,
  ): Awaitable<StoredPspsEvent>
  /** Every event, newest first. */
  list(): Awaitable<PspsEventSummary[]>
  get(id: number): Awaitable<StoredPspsEvent | null>
  /** Moves the event from `from` to `to`; false (nothing written) when its phase is no longer `from`. */
  changePhase(id: number, from: PspsPhase, to: PspsPhase, actor: PspsActor, at: number): Awaitable<boolean>
  /**
   * Writes one period of a circuit; `detail` goes to the audit entry. `replaces` is the version
   * the caller read (null: a new period): false, nothing written, when the period exists already
   * (new) or was recorded again meanwhile (compare and set, like changePhase).
   */
  savePeriod(
    id: number,
    circuit: string,
    period: DeenergizationPeriod,
    replaces: PeriodVersion | null,
    detail: Record<string, unknown>,
    actor: PspsActor,
    at: number,
  ): Awaitable<boolean>
  /** The notifications sent (delivery log lines `sent`) with `from <= at < to`, oldest first, at most `limit`. */
  deliveries(from: number, to: number, limit: number): Awaitable<DeliveryLogEntry[]>
}

/** The audit entry of a PSPS event change (event names psps.event.created, .phase, .circuit). */
export function pspsAudit(
  event: string,
  id: number,
  actor: PspsActor,
  at: number,
  detail: Record<string, unknown>,
): AuditEntry {
  return { at, event, memberId: actor.memberId, subject: `psps-event:${id}`, ip: actor.ip, detail }
}

export function createPspsEventStore(db: Database.Database): PspsEventStore {
  const writeAudit = auditWriter(db)
  const rows = eventRows.pspsEventRowMappers(codec)
  const { log: toLog } = deliveryRowMappers(codec)
  const insertEvent = db.prepare(
    'INSERT INTO psps_events (name, phase, created_at, created_by, updated_at) VALUES (?, ?, ?, ?, ?)',
  )
  const insertPhase = db.prepare(
    'INSERT INTO psps_event_phases (event_id, seq, phase, at, member_id) VALUES (?, ?, ?, ?, ?)',
  )
  const insertCircuit = db.prepare(insertInto(codec, 'psps_event_circuits', eventRows.CIRCUIT_COLUMNS))
  const eventById = db.prepare<[number], eventRows.EventRow>('SELECT * FROM psps_events WHERE id = ?')
  const phasesOf = db.prepare<[number], eventRows.PhaseRow>(
    'SELECT * FROM psps_event_phases WHERE event_id = ? ORDER BY seq',
  )
  const circuitsOf = db.prepare<[number], eventRows.CircuitRow>(
    'SELECT * FROM psps_event_circuits WHERE event_id = ? ORDER BY position',
  )
  const periodsOf = db.prepare<[number], eventRows.PeriodRow>(
    'SELECT * FROM psps_circuit_periods WHERE event_id = ? ORDER BY circuit, period',
  )
  const listAll = db.prepare<[], eventRows.EventRow & { circuit_count: number }>(
    `SELECT e.*, (SELECT count(*) FROM psps_event_circuits c WHERE c.event_id = e.id) AS circuit_count
     FROM psps_events e ORDER BY e.created_at DESC, e.id DESC`,
  )
  const casPhase = db.prepare('UPDATE psps_events SET phase = ?, updated_at = ? WHERE id = ? AND phase = ?')
  const nextSeq = db
    .prepare<[number], number>('SELECT coalesce(max(seq), 0) + 1 FROM psps_event_phases WHERE event_id = ?')
    .pluck()
  const touch = db.prepare('UPDATE psps_events SET updated_at = ? WHERE id = ?')
  const insertPeriod = db.prepare(
    `INSERT INTO psps_circuit_periods (event_id, circuit, period, deenergized_at, patrolled_at, restored_at,
       damage_found, notes, recorded_by, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (event_id, circuit, period) DO NOTHING`,
  )
  const updatePeriod = db.prepare(
    `UPDATE psps_circuit_periods SET deenergized_at = ?, patrolled_at = ?, restored_at = ?, damage_found = ?,
       notes = ?, recorded_by = ?, recorded_at = ?
     WHERE event_id = ? AND circuit = ? AND period = ? AND recorded_at = ? AND recorded_by = ?`,
  )
  const logBetween = db.prepare<[number, number, number], LogRow>(
    "SELECT * FROM delivery_log WHERE event = 'sent' AND at >= ? AND at < ? ORDER BY at, id LIMIT ?",
  )

  const get = (id: number): StoredPspsEvent | null => {
    const e = eventById.get(id)
    if (!e) return null
    return rows.event(e, phasesOf.all(id), circuitsOf.all(id), periodsOf.all(id))
  }

  const create = db.transaction(
    (name: string, circuits: readonly PspsEventCircuitInput[], actor: PspsActor, at: number) => {
      const id = Number(insertEvent.run(name, 'watch', at, actor.memberId, at).lastInsertRowid)
      insertPhase.run(id, 1, 'watch', at, actor.memberId)
      circuits.forEach((c, i) => insertCircuit.run(eventRows.circuitToParams(codec, id, c, i)))
      writeAudit(
        pspsAudit('psps.event.created', id, actor, at, { name, circuits: circuits.map((c) => c.circuit) }),
      )
      return id
    },
  )
  const changePhase = db.transaction(
    (id: number, from: PspsPhase, to: PspsPhase, actor: PspsActor, at: number) => {
      if (casPhase.run(to, at, id, from).changes === 0) return false
      insertPhase.run(id, nextSeq.get(id) ?? 1, to, at, actor.memberId)
      writeAudit(pspsAudit('psps.event.phase', id, actor, at, { from, to }))
      return true
    },
  )
  const savePeriod = db.transaction(
    (
      id: number,
      circuit: string,
      p: DeenergizationPeriod,
      replaces: PeriodVersion | null,
      detail: Record<string, unknown>,
      actor: PspsActor,
      at: number,
    ): boolean => {
      const values = eventRows.periodValues(codec, p)
      const written =
        replaces === null
          ? insertPeriod.run(id, circuit, p.period, ...values).changes
          : updatePeriod.run(...values, id, circuit, p.period, replaces.recordedAt, replaces.recordedBy)
              .changes
      if (written === 0) return false
      touch.run(at, id)
      writeAudit(pspsAudit('psps.event.circuit', id, actor, at, { circuit, period: p.period, ...detail }))
      return true
    },
  )

  return {
    create: (name, circuits, actor, at) => {
      const event = get(create(name, circuits, actor, at))
      if (!event) throw new Error('the PSPS event just created is missing')
      return event
    },
    list: () => listAll.all().map(rows.summary),
    get,
    changePhase: (id, from, to, actor, at) => changePhase(id, from, to, actor, at),
    savePeriod: (id, circuit, period, replaces, detail, actor, at) =>
      savePeriod(id, circuit, period, replaces, detail, actor, at),
    deliveries: (from, to, limit) => logBetween.all(from, to, limit).map(toLog),
  }
}
