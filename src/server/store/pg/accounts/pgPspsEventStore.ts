import { deliveryRowMappers, type LogRow } from '../../rows/deliveryRows'
import * as eventRows from '../../rows/pspsEventRows'
import { insertInto, pgCodec as codec } from '../../rows/codec'
import { pspsAudit, type PspsEventStore, type StoredPspsEvent } from '../../pspsEventStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe } from './nulSafe'
import { pgAudit } from './pgAudit'

const rows = eventRows.pspsEventRowMappers(codec)
const { log: logOf } = deliveryRowMappers(codec)

/** PSPS events in PostgreSQL (accounts migration 003), audited in identity_audit in the same transaction. */
export function createPgPspsEventStore(pg: PgDatabase): PspsEventStore {
  const db = nulSafe(pg)

  async function get(id: number): Promise<StoredPspsEvent | null> {
    const e = await db.one<eventRows.EventRow>('SELECT * FROM psps_events WHERE id = $1', [id])
    if (!e) return null
    const [phases, circuits, periods] = await Promise.all([
      db.query<eventRows.PhaseRow>('SELECT * FROM psps_event_phases WHERE event_id = $1 ORDER BY seq', [id]),
      db.query<eventRows.CircuitRow>(
        'SELECT * FROM psps_event_circuits WHERE event_id = $1 ORDER BY position',
        [id],
      ),
      db.query<eventRows.PeriodRow>(
        'SELECT * FROM psps_circuit_periods WHERE event_id = $1 ORDER BY circuit, period',
        [id],
      ),
    ])
    return rows.event(e, phases, circuits, periods)
  }

  return {
    async create(name, circuits, actor, at) {
      const id = await db.tx(async () => {
        const created = await db.one<{ id: number }>(
          `INSERT INTO psps_events (name, phase, created_at, created_by, updated_at)
           VALUES ($1, 'watch', $2, $3, $2) RETURNING id`,
          [name, at, actor.memberId],
        )
        if (!created) throw new Error('INSERT … RETURNING answered no row')
        await db.run(
          "INSERT INTO psps_event_phases (event_id, seq, phase, at, member_id) VALUES ($1, 1, 'watch', $2, $3)",
          [created.id, at, actor.memberId],
        )
        for (const [i, c] of circuits.entries())
          await db.run(
            insertInto(codec, 'psps_event_circuits', eventRows.CIRCUIT_COLUMNS),
            eventRows.circuitToParams(codec, created.id, c, i),
          )
        await pgAudit(
          db,
          pspsAudit('psps.event.created', created.id, actor, at, {
            name,
            circuits: circuits.map((c) => c.circuit),
          }),
        )
        return created.id
      })
      const event = await get(id)
      if (!event) throw new Error('the PSPS event just created is missing')
      return event
    },
    async list() {
      const found = await db.query<eventRows.EventRow & { circuit_count: number }>(
        `SELECT e.*, (SELECT count(*) FROM psps_event_circuits c WHERE c.event_id = e.id) AS circuit_count
         FROM psps_events e ORDER BY e.created_at DESC, e.id DESC`,
      )
      return found.map(rows.summary)
    },
    get,
    changePhase(id, from, to, actor, at) {
      return db.tx(async () => {
        // The UPDATE holds the event's row lock to the commit: phase changes of one event queue.
        const changed = await db.run(
          'UPDATE psps_events SET phase = $1, updated_at = $2 WHERE id = $3 AND phase = $4',
          [to, at, id, from],
        )
        if (changed === 0) return false
        await db.run(
          `INSERT INTO psps_event_phases (event_id, seq, phase, at, member_id)
           SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, $4 FROM psps_event_phases WHERE event_id = $1`,
          [id, to, at, actor.memberId],
        )
        await pgAudit(db, pspsAudit('psps.event.phase', id, actor, at, { from, to }))
        return true
      })
    },
    savePeriod(id, circuit, p, replaces, detail, actor, at) {
      return db.tx(async () => {
        const values = eventRows.periodValues(codec, p)
        // The UPDATE holds the period's row lock to the commit; a second insert of one period waits, then does nothing.
        const written =
          replaces === null
            ? await db.run(
                `INSERT INTO psps_circuit_periods (event_id, circuit, period, deenergized_at, patrolled_at, restored_at,
                   damage_found, notes, recorded_by, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 ON CONFLICT (event_id, circuit, period) DO NOTHING`,
                [id, circuit, p.period, ...values],
              )
            : await db.run(
                `UPDATE psps_circuit_periods SET deenergized_at = $4, patrolled_at = $5, restored_at = $6,
                   damage_found = $7, notes = $8, recorded_by = $9, recorded_at = $10
                 WHERE event_id = $1 AND circuit = $2 AND period = $3 AND recorded_at = $11 AND recorded_by = $12`,
                [id, circuit, p.period, ...values, replaces.recordedAt, replaces.recordedBy],
              )
        if (written === 0) return false
        await db.run('UPDATE psps_events SET updated_at = $1 WHERE id = $2', [at, id])
        await pgAudit(
          db,
          pspsAudit('psps.event.circuit', id, actor, at, { circuit, period: p.period, ...detail }),
        )
        return true
      })
    },
    async deliveries(from, to, limit) {
      const found = await db.query<LogRow>(
        "SELECT * FROM delivery_log WHERE event = 'sent' AND at >= $1 AND at < $2 ORDER BY at, id LIMIT $3",
        [from, to, limit],
      )
      return found.map(logOf)
    },
  }
}
