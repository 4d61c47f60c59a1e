// The benchmarks' second load client: wrk (C, epoll; Debian's `wrk` package), for the sets where
// autocannon is the bottleneck (points, cached repeats). Same protocol as loadClient's autocannon:
// keep-alive connections on 127.0.0.1, one request in flight per connection, a list replayed once
// with each path asked by exactly one connection (wrk's one thread walks a shared cursor).
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Summary } from './stats'

/** What one wrk run of a path list answered. */
export interface WrkRun {
  readonly latency: Summary
  readonly wallMs: number
  /** Answers other than 2xx/3xx, and socket errors or timeouts. */
  readonly errors: number
}

// The list is read once per run; once every path has been answered the thread prints a marker and
// stops, and wrkOnce interrupts wrk (which otherwise sleeps out its -d) so it prints its summary. A
// request or two past the end (at most one per extra connection, sent before the last answer came)
// repeats the last path and is not counted. The wall time runs from the first request to the last
// answer (CLOCK_MONOTONIC through LuaJIT's FFI); percentiles come from wrk's µs histogram.
const SCRIPT = `
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } emberline_timespec;
int clock_gettime(int clk_id, emberline_timespec *tp);
]]
local ts = ffi.new("emberline_timespec")
local function now_us()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) * 1e6 + tonumber(ts.tv_nsec) / 1e3
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
local paths = {}
for line in io.lines(os.getenv("EMBERLINE_WRK_PATHS")) do paths[#paths + 1] = line end
local n = #paths
local sent = 0
answered, bad, first_us, last_us = 0, 0, 0, 0
request = function()
  sent = sent + 1
  if sent == 1 then first_us = now_us() end
  return wrk.format("GET", paths[math.min(sent, n)])
end
response = function(status)
  if answered >= n then return end
  answered = answered + 1
  last_us = now_us()
  if status >= 400 then bad = bad + 1 end
  if answered == n then
    io.write("EMBERLINE-DONE\\n")
    io.flush()
    wrk.thread:stop()
  end
end
done = function(summary, latency)
  local t = threads[1]
  local e = summary.errors
  io.write(string.format('EMBERLINE {"n":%d,"us":%.1f,"errors":%d,"p50":%d,"p95":%d,"max":%d,"mean":%.1f}\\n',
    t:get("answered"), t:get("last_us") - t:get("first_us"), t:get("bad") + e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency.max, latency.mean))
end
`

let wrkFound: boolean | null = null

/** Whether `wrk` is on the PATH (Debian: `apt-get install wrk`). */
export function hasWrk(): boolean {
  if (wrkFound === null) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' })
      wrkFound = true
    } catch (error) {
      // wrk prints its usage and exits 1 on --version; only a missing binary is "not found"
      wrkFound = (error as NodeJS.ErrnoException).code !== 'ENOENT'
    }
  }
  return wrkFound
}

/** Replays `paths` once against `base` with `connections` keep-alive connections. */
export async function wrkOnce(
  base: string,
  paths: readonly string[],
  connections: number,
  headers: Record<string, string>,
): Promise<WrkRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-wrk-'))
  try {
    const list = path.join(dir, 'paths.txt')
    const script = path.join(dir, 'replay.lua')
    fs.writeFileSync(list, `${paths.join('\n')}\n`)
    fs.writeFileSync(script, SCRIPT)
    const args = [
      '-t1',
      `-c${Math.min(connections, paths.length)}`,
      '-d600s',
      '--timeout',
      '30s',
      '-s',
      script,
    ]
    for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
    args.push(base)
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', args, {
        env: { ...process.env, EMBERLINE_WRK_PATHS: list },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8')
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk
        if (stdout.includes('EMBERLINE-DONE')) child.kill('SIGINT')
      })
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      child.on('error', reject)
      child.on('close', () => {
        if (stdout.includes('EMBERLINE {')) resolve(stdout)
        else reject(new Error(`wrk printed no summary: ${stderr || stdout}`))
      })
    })
    const line = out.split('\n').find((l) => l.startsWith('EMBERLINE {'))
    const r = JSON.parse((line ?? '').slice('EMBERLINE '.length)) as {
      n: number
      us: number
      errors: number
      p50: number
      p95: number
      max: number
      mean: number
    }
    const ms = (us: number) => Math.round(us / 100) / 10
    return {
      latency: { n: r.n, p50: ms(r.p50), p95: ms(r.p95), max: ms(r.max), mean: ms(r.mean) },
      wallMs: r.us / 1000,
      errors: r.errors,
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
