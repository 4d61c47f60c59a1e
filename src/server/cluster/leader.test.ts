import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADVISORY_LOCK_SPACE } from '../store/pg/pgDatabase'
import { testPg, type TestPg } from '../store/pg/testing/pgTestDatabase'
import { AdvisoryLeader } from './leader'
import { soleLeader } from './leadership'

let t: TestPg
beforeAll(async () => {
  t = await testPg({ migrate: false })
})
afterAll(() => t.drop())

/** Waits until `ok()` holds (polling every 20 ms), failing after `ms`. */
async function until(ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A task that counts how often it is running. */
function counter() {
  const c = { running: 0, starts: 0 }
  const task = () => {
    c.running++
    c.starts++
    return () => {
      c.running--
    }
  }
  return { c, task }
}

describe('AdvisoryLeader', () => {
  it('lets exactly one of two servers lead, and the other takes over when the leader closes', async () => {
    const key = 101
    const a = new AdvisoryLeader({ url: t.url, key, retryMs: 100 })
    const b = new AdvisoryLeader({ url: t.url, key, retryMs: 100 })
    const ta = counter()
    const tb = counter()
    a.whileLeader(ta.task)
    b.whileLeader(tb.task)
    await a.start()
    await b.start()
    expect(a.isLeader).toBe(true)
    expect(b.isLeader).toBe(false)
    expect(ta.c.running).toBe(1)
    expect(tb.c.running).toBe(0)
    // b keeps trying and keeps failing while a holds the lock.
    await new Promise((r) => setTimeout(r, 350))
    expect(b.isLeader).toBe(false)
    await a.close()
    expect(ta.c.running).toBe(0)
    await until(() => b.isLeader)
    expect(tb.c.running).toBe(1)
    await b.close()
    expect(tb.c.running).toBe(0)
  })

  it('moves when the leader’s session dies (its connection killed), and the old leader stops its work', async () => {
    const key = 102
    const changes: boolean[] = []
    // a's next try is a minute away, as a crashed server's never comes (with equal periods a, back
    // on a fresh connection, may win the lock again first — also right, but not this case).
    const a = new AdvisoryLeader({ url: t.url, key, retryMs: 60_000, onChange: (l) => changes.push(l) })
    const b = new AdvisoryLeader({ url: t.url, key, retryMs: 100 })
    const ta = counter()
    a.whileLeader(ta.task)
    await a.start()
    await b.start()
    expect(a.isLeader).toBe(true)
    // Kill a's session as a crashed server's would end: PostgreSQL releases its lock.
    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [ADVISORY_LOCK_SPACE, key],
    )
    await until(() => b.isLeader)
    await until(() => !a.isLeader || changes.length >= 2)
    expect(ta.c.running).toBe(0)
    expect(changes.slice(0, 2)).toEqual([true, false])
    // Only one leads at any time: a, trying again on a fresh connection, stays a follower.
    await a.start()
    expect(a.isLeader).toBe(false)
    expect(b.isLeader).toBe(true)
    await a.close()
    await b.close()
  })

  it('starts a task registered while already leading at once, and unregistering stops it', async () => {
    const a = new AdvisoryLeader({ url: t.url, key: 103, retryMs: 100 })
    await a.start()
    const { c, task } = counter()
    const off = a.whileLeader(task)
    expect(c.running).toBe(1)
    off()
    expect(c.running).toBe(0)
    await a.close()
  })
})

describe('soleLeader', () => {
  it('always leads (SQLite: one process) and stops its tasks when closed', async () => {
    const l = soleLeader()
    const { c, task } = counter()
    l.whileLeader(task)
    expect(l.isLeader).toBe(true)
    expect(c.running).toBe(1)
    await l.close()
    expect(c.running).toBe(0)
  })
})
