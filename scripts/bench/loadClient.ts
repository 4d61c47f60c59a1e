// The load client of the benchmarks: autocannon (programmatic API) by default, or wrk
// (`selectLoadClient('wrk')`, wrkClient.ts) where autocannon is the bottleneck; keep-alive connections
// on 127.0.0.1, one request in flight per connection. A tile list is replayed once, each tile asked
// by exactly one connection (a shared cursor), so a "cold" pass cuts every tile once.
import autocannon from 'autocannon'
import { summarize, type Summary } from './stats'
import { hasWrk, wrkOnce } from './wrkClient'

export type LoadClient = 'autocannon' | 'wrk'
let client: LoadClient = 'autocannon'

/** Chooses the client of every later pass (both sides of a comparison must use the same one). */
export function selectLoadClient(kind: LoadClient): void {
  if (kind === 'wrk' && !hasWrk()) throw new Error('--client wrk: wrk is not installed (apt-get install wrk)')
  client = kind
}

/** The client in use, for the figures' header. */
export function loadClientName(): string {
  return client === 'wrk' ? 'wrk (C, epoll; one thread)' : 'autocannon (Node)'
}

export interface ListPass {
  /** Requests answered per second over the whole list (all sets, back to back). */
  perS: number
  wallMs: number
  /** Latency per tile set, ms (measured by the client per response, sub-millisecond). */
  sets: Record<string, Summary>
  /** Answers other than 2xx/304, and socket errors or timeouts. */
  errors: number
}

async function once(
  base: string,
  paths: readonly string[],
  connections: number,
  headers: Record<string, string>,
): Promise<{ latency: Summary; wallMs: number; errors: number }> {
  if (client === 'wrk') return wrkOnce(base, paths, connections, headers)
  let next = 0
  const ms: number[] = []
  // Wall time from the first request built to the last answer: autocannon itself resolves on its
  // next 1-second tick, which would cap a short list's throughput.
  let first = 0
  let last = 0
  const inst = autocannon({
    url: base,
    connections: Math.min(connections, paths.length),
    pipelining: 1,
    amount: paths.length,
    timeout: 30,
    headers,
    requests: [
      {
        setupRequest: (req) => {
          if (next === 0) first = performance.now()
          return { ...req, path: paths[next++ % paths.length] as string }
        },
      },
    ],
  })
  inst.on('response', (_client, _status, _bytes, took) => {
    ms.push(took)
    last = performance.now()
  })
  const r = await inst
  return { latency: summarize(ms), wallMs: last - first, errors: r.non2xx + r.errors + r.timeouts }
}

/**
 * Replays `paths` (grouped by `sets[i]`, one set after the other) with `connections` clients.
 * Throughput is the whole list over the summed wall time of its sets.
 */
export async function replay(
  base: string,
  paths: readonly string[],
  sets: readonly string[],
  connections: number,
  headers: Record<string, string> = {},
): Promise<ListPass> {
  const names = [...new Set(sets)]
  const out: ListPass = { perS: 0, wallMs: 0, sets: {}, errors: 0 }
  for (const name of names) {
    const part = paths.filter((_, i) => sets[i] === name)
    const r = await once(base, part, connections, headers)
    out.sets[name] = r.latency
    out.wallMs += r.wallMs
    out.errors += r.errors
  }
  out.perS = paths.length / (out.wallMs / 1000)
  return out
}

/** `amount` requests of one path (a floor: the bare route, or one cached tile), requests/s and latency. */
export async function hammer(
  base: string,
  path: string,
  connections: number,
  amount: number,
  headers: Record<string, string> = {},
): Promise<{ perS: number; latency: Summary; errors: number }> {
  const r = await once(
    base,
    Array.from({ length: amount }, () => path),
    connections,
    headers,
  )
  return { perS: amount / (r.wallMs / 1000), latency: r.latency, errors: r.errors }
}
