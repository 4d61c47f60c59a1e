// Types for the part of autocannon 9 (untyped) the benchmarks use: the programmatic API.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    /** Called before each request; returns the request to send. */
    setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest
  }

  export interface AutocannonOptions {
    url: string
    connections?: number
    pipelining?: number
    amount?: number
    duration?: number
    timeout?: number
    headers?: Record<string, string>
    requests?: AutocannonRequest[]
  }

  export interface AutocannonResult {
    requests: { total: number; average: number }
    latency: { p50: number; p99: number; max: number }
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
  }

  export interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    on(
      event: 'response',
      listener: (client: unknown, status: number, bytes: number, ms: number) => void,
    ): this
  }

  export default function autocannon(opts: AutocannonOptions): Instance
}
