import fs from 'node:fs'
import os from 'node:os'

/** The nice value of a consequence run's threads (docs/fire.md "Consequence run: speed"). */
export const FIRE_THREAD_NICE = 10

/**
 * Lowers the CPU priority of the calling thread only (a fire worker thread), so the server thread —
 * tiles, sign-in — gets a core first when the run's threads and it want the same one. On Linux a
 * thread is a task of its own: `/proc/thread-self` names `<pid>/task/<tid>`, and setpriority on the
 * tid renices that thread, not the process. Answers the thread's id, or null where that is not
 * possible (not Linux, no /proc): the thread then runs at the process's priority.
 */
export function lowerThreadPriority(nice = FIRE_THREAD_NICE): number | null {
  if (process.platform !== 'linux') return null
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop())
    if (!Number.isInteger(tid) || tid <= 0) return null
    // Never raise it: a process already niced further keeps its value.
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice)
    return tid
  } catch {
    return null
  }
}

/** A thread's nice value from /proc/<pid>/task/<tid>/stat (Linux), or null. */
export function threadNice(tid: number, pid = process.pid): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    // Fields after the command (which may hold spaces) in parentheses; nice is field 19.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(rest[19 - 3])
  } catch {
    return null
  }
}
