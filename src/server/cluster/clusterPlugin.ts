import type { FastifyInstance } from 'fastify'
import { noQuery } from '../http/schemas'
import { soleLeader, type Leadership } from './leadership'
import { Readiness } from './readiness'

declare module 'fastify' {
  interface FastifyInstance {
    /** Which server runs the scheduled work (feed polling, alert evaluation, delivery jobs). */
    leader: Leadership
    /** GET /api/ready: starting, ready or draining, and whether the database answers. */
    readiness: Readiness
  }
}

export interface ClusterOptions {
  /** The scheduled-work leadership (default: this process always leads, as on SQLite). */
  leader?: Leadership
  /** Answers when the database answers (PostgreSQL: `SELECT 1`); throws or hangs when it does not. */
  probe?: () => Promise<unknown>
}

const readyResponse = {
  type: 'object',
  required: ['ready', 'state', 'database'],
  properties: {
    ready: { type: 'boolean' },
    state: { type: 'string', enum: ['starting', 'ready', 'draining'] },
    database: { type: 'string', enum: ['ok', 'unreachable'] },
  },
} as const

/**
 * Decorates `app.leader` and `app.readiness` and serves the public readiness route for load
 * balancers: GET /api/ready answers 200 `{ ready: true, … }` while the server takes requests, 503
 * while it is starting, draining (after SIGTERM) or cannot reach its database. GET /api/health
 * (liveness: the process answers) stays as it is.
 */
export function clusterPlugin(app: FastifyInstance, opts: ClusterOptions): void {
  const leader = opts.leader ?? soleLeader((message, err) => app.log.warn({ err }, message))
  const readiness = new Readiness(opts.probe)
  app.decorate('leader', leader)
  app.decorate('readiness', readiness)
  app.addHook('onReady', async () => readiness.markReady())
  app.addHook('onClose', async () => readiness.drain())
  app.get(
    '/api/ready',
    {
      config: { auth: 'public' },
      logLevel: 'warn',
      schema: { querystring: noQuery, response: { 200: readyResponse, 503: readyResponse } },
    },
    async (_request, reply) => {
      const report = await readiness.report()
      return reply
        .code(report.ready ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send(report)
    },
  )
}
