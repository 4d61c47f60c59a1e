import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError, notFound } from '../../http/httpErrors'
import { noBody, noQuery } from '../../http/schemas'
import { FireLandscapeError } from '../landscape'
import type { WindowSettings } from '../../grids/forecastWindow'
import { FireRunService } from './FireRunService'
import type { FireRunSettings } from './fireRunSettings'

declare module 'fastify' {
  interface FastifyInstance {
    /** The consequence run of this server (docs/fire.md "Consequence run"). */
    fireRuns: FireRunService
  }
}

export interface FireRunRoutesOptions {
  settings: FireRunSettings
  /** Start the leader's weather check and this server's worker loop (main.ts: FIRE_RUNS=on). */
  schedule: boolean
  window: WindowSettings
  /** This server's name in the job table. */
  server?: string
}

const idParams = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 } },
  required: ['id'],
  additionalProperties: false,
} as const

const listQuery = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
  additionalProperties: false,
} as const

/**
 * `GET /api/fire/runs` (the newest runs), `GET /api/fire/runs/<id>` (status, batches done/total,
 * per-server counts and timings) and `POST /api/fire/runs` (run now), each with the `fire_runs`
 * permission of config/app.yaml; decorates `app.fireRuns` and, with `schedule`, starts the run's
 * scheduling (the leader) and worker loop (every server).
 */
async function fireRunPlugin(app: FastifyInstance, opts: FireRunRoutesOptions): Promise<void> {
  const service = new FireRunService({
    store: app.store,
    settings: opts.settings,
    window: opts.window,
    ...(opts.server ? { server: opts.server } : {}),
    warn: (message, err) => app.log.warn({ err }, message),
  })
  app.decorate('fireRuns', service)
  let stop: (() => void) | null = null
  if (opts.schedule) {
    app.addHook('onReady', async () => {
      // Scheduled work waits for the after-listen warm-up, like alert evaluation.
      void app.readiness.whenReady().then(() => {
        stop = service.start(app.leader)
      })
    })
  }
  app.addHook('onClose', async () => {
    stop?.()
    await service.close()
  })

  app.get<{ Querystring: { limit: number } }>(
    '/api/fire/runs',
    { config: { auth: { permission: 'fire_runs.read' } }, schema: { querystring: listQuery } },
    async (request, reply) => {
      const runs = await app.store.fireRuns.runs(request.query.limit)
      return reply.header('cache-control', 'no-store').send({ runs })
    },
  )

  app.get<{ Params: { id: number } }>(
    '/api/fire/runs/:id',
    {
      config: { auth: { permission: 'fire_runs.read' } },
      schema: { querystring: noQuery, params: idParams },
    },
    async (request, reply) => {
      const run = await app.store.fireRuns.run(request.params.id)
      if (!run) return notFound(reply, `no fire consequence run ${request.params.id}`)
      const circuits = run.status === 'complete' ? await app.store.fireRuns.circuitResults(run.id) : []
      return reply.header('cache-control', 'no-store').send({ run, circuits })
    },
  )

  app.post(
    '/api/fire/runs',
    { config: { auth: { permission: 'fire_runs.run' } }, schema: { querystring: noQuery, body: noBody } },
    async (request, reply) => {
      try {
        const out = await service.requestRun('admin', request.session?.memberId ?? null)
        if (!out.created)
          throw new HttpError(409, `fire consequence run ${out.id} is still running`, undefined, 'conflict')
        return await reply.code(202).header('cache-control', 'no-store').send({ id: out.id })
      } catch (err) {
        if (err instanceof FireLandscapeError) throw new HttpError(409, err.message, undefined, 'conflict')
        throw err
      }
    },
  )
}

/** Not encapsulated: `app.fireRuns` is the server's one consequence-run service. */
export const fireRunRoutes = fp(fireRunPlugin, { name: 'emberline-fire-runs', fastify: '5.x' })
