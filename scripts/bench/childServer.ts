import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export interface ChildServer {
  child: ChildProcess
  port: number
  /** The process's own figure after `listening` (ms from its start to listening), if it prints one. */
  startupMs: number
  /** Spawn to the `listening` line, measured here: module loading (tsx) included. */
  spawnToListenMs: number
  /** Resolves with the ms printed on the child's `warm <ms>` line (our server: tile data and indexes ready). */
  warm: Promise<number>
  /** The child's stdout lines so far (e.g. `archive …` lines of the bench server). */
  lines: string[]
  stop(): Promise<void>
}

const root = path.resolve(import.meta.dirname, '../..')

/**
 * Starts `node --import tsx <script>` (a bench server of this folder) and resolves once it prints
 * `listening <port> [<startup ms>]`.
 */
export function startChild(script: string, env: Record<string, string>): Promise<ChildServer> {
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let buf = ''
    const lines: string[] = []
    let warmDone: (ms: number) => void = () => undefined
    const warm = new Promise<number>((r) => (warmDone = r))
    const stop = async (): Promise<void> => {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      buf += chunk.toString()
      lines.length = 0
      lines.push(...buf.split('\n').filter((l) => l !== ''))
      const w = /warm (\d+)/.exec(buf)
      if (w) warmDone(Number(w[1]))
      const l = /listening (\d+)(?: (\d+))?/.exec(buf)
      if (l)
        resolve({
          child,
          port: Number(l[1]),
          startupMs: Number(l[2] ?? 0),
          spawnToListenMs: Math.round(performance.now() - spawnedAt),
          warm,
          lines,
          stop,
        })
    })
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)))
  })
}

/** Resident set of a process, MiB (from /proc). */
export function rssMiB(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Math.round(Number(kb) / 1024) : null
  } catch {
    return null
  }
}

/** CPU time (user + system, all threads) of processes, ms: `pids`, plus `parent` and its children (live and ended). */
export function cpuMs(pids: (number | undefined)[], parent?: number): number {
  const list = [...pids]
  if (parent) {
    list.push(parent)
    for (const d of fs.readdirSync('/proc'))
      if (/^\d+$/.test(d)) {
        try {
          const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8')
          if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) list.push(Number(d))
        } catch {
          // gone
        }
      }
  }
  let ticks = 0
  for (const pid of list) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(f[11]) + Number(f[12])
      // The parent's children that ended (PostgreSQL backends that closed) count too.
      if (pid === parent) ticks += Number(f[13]) + Number(f[14])
    } catch {
      // gone
    }
  }
  return ticks * 10 // CLK_TCK 100
}
