import os from 'node:os'
import type Database from 'better-sqlite3'

/**
 * A replacement's staging table (`ds_<id>__staging`) and retired table (`ds_<id>__old`) are
 * committed in batches, so a killed import leaves them behind (hundreds of MB for a large
 * dataset). Each replacement records its owner (`host pid`) in `meta` under `import:<id>` while
 * it runs; stale tables — no owner, or an owner on this host whose process is gone — are dropped
 * when the store opens and before every replacement. A live import (another process, or a worker
 * thread of this one) keeps its tables; so does an owner on another host (SQLite over a network
 * share is unsupported, but its tables are not ours to judge).
 */
const LEFTOVER = /^ds_([a-z][a-z0-9_]*)__(staging|old)$/

const ownerKey = (datasetId: string) => `import:${datasetId}`

/** This process as an import owner. */
function me(): string {
  return `${os.hostname()} ${process.pid}`
}

/** Records this process as the owner of `datasetId`'s replacement (in the caller's transaction). */
export function claimReplacement(db: Database.Database, datasetId: string): void {
  db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(ownerKey(datasetId), me())
}

/** The replacement is over (swapped in and the retired table dropped, or given up). */
export function releaseReplacement(db: Database.Database, datasetId: string): void {
  db.prepare('DELETE FROM meta WHERE key = ?').run(ownerKey(datasetId))
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether the owner recorded for a dataset's replacement is still running. */
function ownerRunning(owner: string | undefined): boolean {
  if (!owner) return false
  const m = /^(.*) (\d+)$/.exec(owner)
  if (!m) return false
  if (m[1] !== os.hostname()) return true
  return alive(Number(m[2]))
}

/** Drops the staging and retired tables no running import owns; answers the tables dropped. */
export function dropStaleStaging(db: Database.Database): string[] {
  if (db.readonly) return []
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds\\_%\\_\\_%' ESCAPE '\\'")
    .pluck()
    .all() as string[]
  const dropped: string[] = []
  const owner = db.prepare('SELECT value FROM meta WHERE key = ?').pluck()
  for (const name of names) {
    const m = LEFTOVER.exec(name)
    if (!m) continue
    const datasetId = m[1] as string
    const running = () => ownerRunning(owner.get(ownerKey(datasetId)) as string | undefined)
    // A running import holds the write lock most of the time: look first without taking it.
    if (running()) continue
    try {
      // Check again and drop in one write transaction: an import claims in one too.
      db.transaction(() => {
        if (running()) return
        db.exec(`DROP TABLE IF EXISTS ${name}`)
        releaseReplacement(db, datasetId)
        dropped.push(name)
      }).immediate()
    } catch (err) {
      // Busy past busy_timeout: someone is writing; the table goes at the next open or import.
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err
    }
  }
  return dropped
}
