import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sessionOf } from '../auth/routeAuth'
import { badRequest, notFound, sendError, HttpError } from '../http/httpErrors'
import { buildPspsEvent } from '../operations/pspsEvent'
import type { PspsActor, PspsEventCircuitInput, PspsPhase, StoredPspsEvent } from '../store/pspsEventStore'
import { PSPS_PHASES } from '../store/pspsEventStore'
import { applyCircuitPatch, type CircuitPatch } from './circuitPatch'
import { circuitSnapshot, circuitsByKey } from './eventCircuits'
import { eventOut, phaseWindows } from './eventWire'
import { memberEmails } from './memberEmails'
import { canMove, PHASE_TRANSITIONS } from './phases'
import { defaultConfig, type PspsEventsConfig } from './pspsEventsConfig'
import { reportRoutes } from './reportRoutes'

export type { PspsEventsConfig } from './pspsEventsConfig'

export interface PspsEventRoutesOptions {
  /** Default: config/operations.yaml `psps`, `pspsEvents`, `pspsReport`; a missing one → 404. */
  settings?: PspsEventsConfig | null
  /** The clock of recorded changes and of the "in the future" rule (default Date.now). */
  clock?: () => number
}

const NOT_CONFIGURED = 'PSPS events are not configured (config/operations.yaml psps, pspsEvents, pspsReport)'
/** Notifications answered per phase at most. */
const NOTIFICATIONS_PER_PHASE = 500

const name = { type: 'string', minLength: 1, maxLength: 200, description: 'the event name' } as const
const circuitId = { type: 'string', minLength: 1, maxLength: 200 } as const
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1, description: 'event id' } },
} as const
const circuitParams = {
  type: 'object',
  required: ['id', 'circuit'],
  properties: { id: idParams.properties.id, circuit: circuitId },
} as const
const createBody = {
  type: 'object',
  required: ['name'],
  propertyNames: { enum: ['name', 'fromForecast', 'circuits'] },
  properties: {
    name,
    fromForecast: { type: 'boolean', description: "true: the forecast roll-up's recommended circuits" },
    circuits: {
      type: 'array',
      minItems: 1,
      maxItems: 5000,
      uniqueItems: true,
      items: circuitId,
      description: 'circuit ids of the circuits dataset',
    },
  },
} as const
const phaseBody = {
  type: 'object',
  required: ['phase'],
  propertyNames: { enum: ['phase'] },
  properties: { phase: { type: 'string', enum: [...PSPS_PHASES] } },
} as const
const time = { type: 'string', maxLength: 40, description: 'ISO 8601 date and time with a zone' } as const
const nullableTime = { type: ['string', 'null'], maxLength: 40 } as const
const circuitBody = {
  type: 'object',
  minProperties: 1,
  propertyNames: { enum: ['period', 'deenergizedAt', 'patrolledAt', 'restoredAt', 'damageFound', 'notes'] },
  properties: {
    period: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      description: 'the period to correct (default: latest/new)',
    },
    deenergizedAt: time,
    patrolledAt: nullableTime,
    restoredAt: nullableTime,
    damageFound: { type: ['boolean', 'null'] },
    notes: { type: ['string', 'null'], maxLength: 4000 },
  },
} as const

interface CreateBody {
  name: string
  fromForecast?: boolean
  circuits?: string[]
}
interface CircuitBody {
  period?: number
  deenergizedAt?: string
  patrolledAt?: string | null
  restoredAt?: string | null
  damageFound?: boolean | null
  notes?: string | null
}

/** ISO 8601 with a time and a zone (Z or ±hh:mm): no local times, whose instant would be a guess. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/

function parseTime(field: string, value: string): number {
  const t = ISO_TIME.test(value) ? Date.parse(value) : NaN
  // Date.parse rolls 30 February over into March: a day the month does not have is refused.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number)
  const daysInMonth = new Date(Date.UTC(y ?? 0, m ?? 0, 0)).getUTCDate()
  if (Number.isNaN(t) || (d ?? 0) > daysInMonth)
    throw new HttpError(
      400,
      `${field} must be an ISO 8601 date and time with a zone, e.g. 2026-11-27T18:30:00Z`,
      field,
    )
  return t
}

/** The body's times parsed (a 400 naming the field otherwise). */
function circuitPatchOf(b: CircuitBody): CircuitPatch {
  const patch: CircuitPatch = {}
  if (b.period !== undefined) patch.period = b.period
  if (b.deenergizedAt !== undefined) patch.deenergizedAt = parseTime('deenergizedAt', b.deenergizedAt)
  for (const f of ['patrolledAt', 'restoredAt'] as const) {
    const v = b[f]
    if (v !== undefined) patch[f] = v === null ? null : parseTime(f, v)
  }
  if (b.damageFound !== undefined) patch.damageFound = b.damageFound
  if (b.notes !== undefined) patch.notes = b.notes
  return patch
}

/**
 * PSPS events from watch to restoration (docs/psps-events.md): create (from the forecast roll-up
 * or by hand), list, read, move through the phases, record each circuit's de-energization, patrol
 * and restoration; and the post-event report (reportRoutes). Reading needs `psps_events.read`,
 * creating `psps_events.create`, recording `psps_events.update` (config/app.yaml rbac). Every
 * change is audited.
 */
export async function pspsEventRoutes(app: FastifyInstance, opts: PspsEventRoutesOptions): Promise<void> {
  const config = opts.settings === undefined ? defaultConfig() : opts.settings
  const clock = opts.clock ?? Date.now
  const store = app.store.pspsEvents
  const read = { auth: { permission: 'psps_events.read' } } as const
  const actorOf = (request: FastifyRequest): PspsActor => ({
    memberId: sessionOf(request).memberId,
    ip: request.ip,
  })

  /** The event as answered, with the notifications sent in each phase's window. */
  async function answer(event: StoredPspsEvent) {
    const windows = phaseWindows(event, clock())
    const notifications = []
    for (const w of windows) notifications.push(await store.deliveries(w.from, w.to, NOTIFICATIONS_PER_PHASE))
    return eventOut(event, notifications, await memberEmails(app.store, event))
  }

  async function circuitsFrom(cfg: PspsEventsConfig, body: CreateBody): Promise<PspsEventCircuitInput[]> {
    if ((body.fromForecast === true) === (body.circuits !== undefined))
      throw new HttpError(400, 'give either "fromForecast": true or "circuits": [circuit ids]', 'circuits')
    const features = await app.store.allFeatures(cfg.rollup.dataset)
    const byKey = circuitsByKey(cfg.rollup, features)
    if (body.fromForecast) {
      const recommended = buildPspsEvent(cfg.rollup, features).rows.filter((r) => r.gustExceedsThreshold)
      const keys = [...new Set(recommended.map((r) => r.key))]
      if (keys.length === 0)
        throw new HttpError(400, 'the forecast recommends no circuit for de-energization', 'fromForecast')
      return keys.map((k) => circuitSnapshot(k, byKey.get(k) ?? {}, cfg.events))
    }
    const circuits = body.circuits ?? []
    const unknown = circuits.filter((c) => !byKey.has(c))
    if (unknown.length > 0)
      throw new HttpError(
        400,
        `not in the circuits dataset ${cfg.rollup.dataset}: ${unknown.slice(0, 10).join(', ')}`,
        'circuits',
      )
    return circuits.map((k) => circuitSnapshot(k, byKey.get(k) ?? {}, cfg.events))
  }

  async function eventOr404(reply: FastifyReply, id: number): Promise<StoredPspsEvent | null> {
    const event = await store.get(id)
    if (!event) notFound(reply, `no PSPS event ${id}`)
    return event
  }

  app.get('/api/psps/events', { config: read }, async (_request, reply) => {
    if (!config) return notFound(reply, NOT_CONFIGURED)
    reply.header('cache-control', 'no-store')
    const events = await store.list()
    return {
      events: events.map((e) => ({
        ...e,
        createdAt: new Date(e.createdAt).toISOString(),
        updatedAt: new Date(e.updatedAt).toISOString(),
      })),
    }
  })

  app.post<{ Body: CreateBody }>(
    '/api/psps/events',
    {
      schema: { body: createBody },
      config: { auth: { permission: 'psps_events.create' } },
      // Ajv's array coercion would take "circuits": "X" as ["X"]; a list must be sent as one.
      preValidation: async (request) => {
        const raw = request.body as { circuits?: unknown } | null
        if (raw && typeof raw === 'object' && raw.circuits !== undefined && !Array.isArray(raw.circuits))
          throw new HttpError(400, 'circuits must be a list of circuit ids', 'circuits')
      },
    },
    async (request, reply) => {
      if (!config) return notFound(reply, NOT_CONFIGURED)
      const name = request.body.name.trim()
      if (!name) return badRequest(reply, 'name', 'name must not be blank')
      const circuits = await circuitsFrom(config, request.body)
      const event = await store.create(name, circuits, actorOf(request), clock())
      return reply
        .code(201)
        .header('location', `/api/psps/events/${event.id}`)
        .send(await answer(event))
    },
  )

  app.get<{ Params: { id: number } }>(
    '/api/psps/events/:id',
    { schema: { params: idParams }, config: read },
    async (request, reply) => {
      if (!config) return notFound(reply, NOT_CONFIGURED)
      const event = await eventOr404(reply, request.params.id)
      if (!event) return reply
      reply.header('cache-control', 'no-store')
      return answer(event)
    },
  )

  app.patch<{ Params: { id: number }; Body: { phase: PspsPhase } }>(
    '/api/psps/events/:id',
    { schema: { params: idParams, body: phaseBody }, config: { auth: { permission: 'psps_events.update' } } },
    async (request, reply) => {
      if (!config) return notFound(reply, NOT_CONFIGURED)
      const event = await eventOr404(reply, request.params.id)
      if (!event) return reply
      const to = request.body.phase
      if (!canMove(event.phase, to)) {
        const allowed = PHASE_TRANSITIONS[event.phase]
        return badRequest(
          reply,
          'phase',
          allowed.length === 0
            ? `the event is ${event.phase}: it can no longer change`
            : `an event in phase ${event.phase} can move to ${allowed.join(', ')}, not ${to}`,
        )
      }
      if (!(await store.changePhase(event.id, event.phase, to, actorOf(request), clock())))
        return sendError(reply, new HttpError(409, 'the event changed meanwhile: read it again', 'phase'))
      const changed = await store.get(event.id)
      return changed ? answer(changed) : notFound(reply, `no PSPS event ${event.id}`)
    },
  )

  app.patch<{ Params: { id: number; circuit: string }; Body: CircuitBody }>(
    '/api/psps/events/:id/circuits/:circuit',
    {
      schema: { params: circuitParams, body: circuitBody },
      config: { auth: { permission: 'psps_events.update' } },
    },
    async (request, reply) => {
      if (!config) return notFound(reply, NOT_CONFIGURED)
      const event = await eventOr404(reply, request.params.id)
      if (!event) return reply
      const circuit = event.circuits.find((c) => c.circuit === request.params.circuit)
      if (!circuit)
        return notFound(reply, `circuit ${request.params.circuit} is not part of PSPS event ${event.id}`)
      if (event.phase === 'closed')
        return sendError(reply, new HttpError(409, 'the event is closed: its record can no longer change'))
      const patch = circuitPatchOf(request.body)
      const actor = actorOf(request)
      const now = clock()
      const outcome = applyCircuitPatch(circuit.periods, patch, actor.memberId, now)
      if (!outcome.ok) return badRequest(reply, outcome.parameter, outcome.message)
      const detail: Record<string, unknown> = { created: outcome.created }
      for (const [k, v] of Object.entries(request.body)) detail[k] = v
      const saved = await store.savePeriod(
        event.id,
        circuit.circuit,
        outcome.period,
        outcome.replaces,
        detail,
        actor,
        now,
      )
      if (!saved)
        return sendError(
          reply,
          new HttpError(409, 'the circuit was recorded meanwhile: read the event again'),
        )
      const changed = await store.get(event.id)
      return changed ? answer(changed) : notFound(reply, `no PSPS event ${event.id}`)
    },
  )

  await app.register(reportRoutes, { settings: config, clock })
}
