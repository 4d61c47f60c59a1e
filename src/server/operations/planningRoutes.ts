import type { FastifyInstance } from 'fastify'
import { operationsConfig, type PlanningSettings } from '../../shared/config'
import { badRequest, notFound } from '../http/httpErrors'
import { numericIdParams, patternQuery } from '../http/schemas'
import { windowSettings } from '../grids/gridCatalog'
import { currentWindowHour, windowStart, windowTimes } from '../grids/forecastWindow'
import { partsToGeometry } from '../store/geometryCodec'
import { PlanningSamples } from './planningSamples'
import { parsePlanningQuery, THRESHOLD_PREFIX } from './planningQuery'
import { rankExceedances } from './planningRank'

export interface PlanningRoutesOptions {
  /** Defaults to operationsConfig.planning; null = not configured (404). */
  settings?: PlanningSettings | null
  /** The clock (tests pin it); the demo window ignores it. */
  now?: () => Date
}

/**
 * GET /api/planning[?hour=N][&threshold.<circuit key>=<mph>…]: for one hour of the forecast window,
 * the circuits of planning.dataset whose gust (the hourly gust grid sampled along the line, maximum)
 * exceeds their threshold — stored, or the what-if override given here (never stored) — ranked by
 * exceedance then customers. GET /api/planning/circuits/:id/geometry: one circuit as a GeoJSON
 * Feature (for highlighting). Session required; 404 when operations.yaml has no `planning` section.
 */
export async function planningRoutes(app: FastifyInstance, opts: PlanningRoutesOptions): Promise<void> {
  const settings = opts.settings === undefined ? (operationsConfig.planning ?? null) : opts.settings
  const grids = app.store.grids
  const window = windowSettings(app.appOptions.demo)
  const now = opts.now ?? (() => new Date())
  const samples = new PlanningSamples(grids)

  // Names here; values (hour range, known circuit keys, mph) checked by parsePlanningQuery.
  const querystring = patternQuery(
    `^(hour|below|${THRESHOLD_PREFIX.replace('.', '\\.')}.+)$`,
    'hour, below and threshold.<circuit key> (what-if gust thresholds, mph)',
  )
  app.get('/api/planning', { schema: { querystring } }, async (request, reply) => {
    if (!settings) return notFound(reply, 'Planning Mode is not configured')
    const { version } = await app.store.info(settings.dataset)
    const circuits = await samples.circuits(settings, version, () => app.store.allFeatures(settings.dataset))
    const hours = settings.hours
    const parsed = parsePlanningQuery(
      request.query as Record<string, unknown>,
      hours,
      new Set(circuits.map((c) => c.key)),
    )
    if (!parsed.ok) return badRequest(reply, parsed.parameter, parsed.message)
    const hour = parsed.hour ?? currentWindowHour(now(), window, hours)
    const validTimes = windowTimes(windowStart(now(), window), hours)
    const gusts = await samples.gusts(settings.gustGrid, hour, version, circuits)
    const ranked = gusts ? rankExceedances(circuits, gusts, parsed.overrides, parsed.below) : []
    const overrides = circuits
      .filter((c) => parsed.overrides.has(c.key))
      .map((c) => ({
        key: c.key,
        threshold: parsed.overrides.get(c.key) ?? null,
        storedThreshold: c.threshold,
      }))
    reply.header('cache-control', 'no-store')
    return {
      hour,
      hours,
      validTime: validTimes[hour] ?? null,
      validTimes,
      gustGrid: settings.gustGrid,
      gridAvailable: gusts !== null,
      considered: circuits.length,
      count: ranked.filter((c) => c.exceeds).length,
      below: parsed.below,
      circuits: ranked,
      overrides,
    }
  })

  const geometrySchema = { params: numericIdParams }
  app.get<{ Params: { id: string } }>(
    '/api/planning/circuits/:id/geometry',
    { schema: geometrySchema },
    async (request, reply) => {
      if (!settings) return notFound(reply, 'Planning Mode is not configured')
      const raw = request.params.id
      const id = Number(raw)
      const { version } = await app.store.info(settings.dataset)
      const circuits = await samples.circuits(settings, version, () =>
        app.store.allFeatures(settings.dataset),
      )
      const circuit = circuits.find((c) => c.id === id)
      const dataset = app.store.dataset(settings.dataset)
      if (!circuit || !dataset) return notFound(reply, `no circuit with id ${raw} in ${settings.dataset}`)
      return {
        type: 'Feature',
        id: circuit.id,
        properties: { key: circuit.key },
        geometry: partsToGeometry(circuit.parts, dataset.geometry),
      }
    },
  )
}
