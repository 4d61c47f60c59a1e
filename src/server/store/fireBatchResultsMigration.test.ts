import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate, MIGRATIONS_DIR, migrationFiles } from './migrate'
import { migratePg, PG_MIGRATIONS_DIR } from './pg/pgDatabase'
import { testPg, type TestPg } from './pg/testing/pgTestDatabase'

// Migrations 200 (SQLite) and data/021 (PostgreSQL) move a batch's results into the batch row. A
// run still running at the upgrade had its done batches' results in the old per-ignition table:
// those batches are queued again; a finished run keeps its batches as they were.

/** Copies `from`'s migrations numbered below `below` into `dir`; `addRest` copies the others. */
function migrationsBefore(from: string, below: number, dir: string): { addRest: () => void } {
  fs.mkdirSync(dir, { recursive: true })
  const copy = (keep: (v: number) => boolean) => {
    for (const m of migrationFiles(from))
      if (keep(m.version)) fs.copyFileSync(path.join(from, m.file), path.join(dir, m.file))
  }
  copy((v) => v < below)
  return { addRest: () => copy((v) => v >= below) }
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-batchresults-'))

const RUNS = `INSERT INTO fire_runs (id, status, trigger, reference_time, start_hours, settings, provenance,
  batches_total, batches_done, ignitions_total, created_at) VALUES
  (1, 'complete', 'admin', '2026-11-27T12:00:00.000Z', '[0]', '{}', '{}', 2, 2, 4, '2026-11-27T12:00:00.000Z'),
  (2, 'running', 'admin', '2026-11-27T15:00:00.000Z', '[0]', '{}', '{}', 2, 1, 4, '2026-11-27T15:00:00.000Z')`
const BATCHES = `INSERT INTO fire_run_batches (run_id, seq, start_hour, start_time, ignitions, status, claimed_by,
  attempts, finished_at, duration_ms) VALUES
  (1, 0, 0, 't', '[]', 'done', 'a', 1, 'f', 5), (1, 1, 0, 't', '[]', 'done', 'a', 1, 'f', 5),
  (2, 0, 0, 't', '[]', 'done', 'a', 1, 'f', 5), (2, 1, 0, 't', '[]', 'running', 'b', 1, NULL, NULL)`
const BATCH_STATES = `SELECT run_id, seq, status, claimed_by, finished_at FROM fire_run_batches ORDER BY run_id, seq`
const EXPECTED_BATCHES = [
  { run_id: 1, seq: 0, status: 'done', claimed_by: 'a', finished_at: 'f' },
  { run_id: 1, seq: 1, status: 'done', claimed_by: 'a', finished_at: 'f' },
  // The running run's done batch: queued again (its results were in the dropped table).
  { run_id: 2, seq: 0, status: 'queued', claimed_by: null, finished_at: null },
  { run_id: 2, seq: 1, status: 'running', claimed_by: 'b', finished_at: null },
]

describe('fire batch results migration', () => {
  it('SQLite (200): results move to the batch row; a running run’s done batches are queued again', () => {
    const dir = tmp()
    const { addRest } = migrationsBefore(MIGRATIONS_DIR, 200, dir)
    const db = new Database(path.join(dir, 'store.sqlite'))
    try {
      migrate(db, dir)
      db.exec(RUNS)
      db.exec(BATCHES)
      addRest()
      expect(migrate(db, dir)).toContain(200)
      expect(db.prepare(BATCH_STATES).all()).toEqual(EXPECTED_BATCHES)
      expect(db.prepare('SELECT id, batches_done FROM fire_runs ORDER BY id').all()).toEqual([
        { id: 1, batches_done: 2 },
        { id: 2, batches_done: 0 },
      ])
      expect(
        db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'fire_ignition_results'`).pluck().get(),
      ).toBe(0)
      db.prepare(`UPDATE fire_run_batches SET results = '{}' WHERE run_id = 1`).run()
    } finally {
      db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  describe('PostgreSQL (data/021)', () => {
    let t: TestPg
    beforeAll(async () => {
      t = await testPg({ migrate: false })
    })
    afterAll(async () => t.drop())

    it('results move to the batch row; a running run’s done batches are queued again', async () => {
      const root = tmp()
      const { addRest } = migrationsBefore(path.join(PG_MIGRATIONS_DIR, 'data'), 21, path.join(root, 'data'))
      try {
        await migratePg(t.db, root)
        await t.db.run(RUNS)
        await t.db.run(BATCHES)
        addRest()
        expect(await migratePg(t.db, root)).toContain('data/021')
        const batches = await t.db.query(BATCH_STATES)
        expect(batches.map((b) => ({ ...b, run_id: Number(b.run_id) }))).toEqual(EXPECTED_BATCHES)
        expect(await t.db.query('SELECT id::int AS id, batches_done FROM fire_runs ORDER BY id')).toEqual([
          { id: 1, batches_done: 2 },
          { id: 2, batches_done: 0 },
        ])
        expect(await t.db.one(`SELECT to_regclass('fire_ignition_results') AS t`)).toEqual({ t: null })
      } finally {
        fs.rmSync(root, { recursive: true, force: true })
      }
    })
  })
})
