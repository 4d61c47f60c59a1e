import os from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { FireBatchPool } from './fireBatchPool'
import { FIRE_THREAD_NICE, threadNice } from './threadPriority'

// The fire worker threads run below the server thread's CPU priority (docs/fire.md "Consequence run:
// speed"): each renices its own thread (not the process), so tiles and sign-in get a core first.

const pool = new FireBatchPool(1)
afterAll(() => pool.close())

describe('the fire worker threads', () => {
  it.runIf(process.platform === 'linux')('lower their own priority, not the server thread’s', async () => {
    const before = os.getPriority()
    // Started ahead of the first batch (warm), each thread says its id once it has lowered its priority.
    await pool.warm()
    expect(pool.threadIds).toHaveLength(1)
    // A batch whose inputs carry no data: the thread starts, answers the error.
    await expect(pool.run(() => ({ key: 'k', hours: 1 }), 'k', 0, [])).rejects.toThrow(
      /neither a source nor data/,
    )
    const [tid, ...more] = pool.threadIds
    expect(more).toHaveLength(0)
    expect(tid).not.toBe(process.pid)
    // /proc/<pid>/task/<tid>/stat: the worker thread at nice 10, the server thread as it was.
    expect(threadNice(tid!)).toBe(Math.max(before, FIRE_THREAD_NICE))
    expect(threadNice(process.pid)).toBe(before)
    expect(os.getPriority()).toBe(before)
  })
})
