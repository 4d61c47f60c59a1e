import type { FastifyInstance } from 'fastify'
import { type MitigationSettings, operationsConfig } from '../../shared/config'
import { badRequest, notFound } from '../http/httpErrors'
import { numericIdParams, patternQuery } from '../http/schemas'
import { MitigationData } from './mitigationData'
import { rankCircuits } from './mitigationScore'
import { parseWeights, WEIGHT_PREFIX } from './mitigationWeights'

export interface MitigationRoutesOptions {
  /** The mitigation section (defaults to operationsConfig.mitigation); null: not configured. */
  settings?: MitigationSettings | null
}

const NOT_CONFIGURED = 'Mitigation Analysis is not configured'

/** The settings the browser renders from: labels, formatters, default and used weights. */
function describe(settings: MitigationSettings, weights: Readonly<Record<string, number>>) {
  const total = Object.values(weights).reduce((s, w) => s + w, 0)
  return {
    dataset: settings.dataset,
    key: { field: settings.key, label: settings.keyLabel ?? settings.key },
    risk: { ...settings.risk },
    factors: settings.consequence.map((c) => ({
      ...c,
      defaultWeight: c.weight,
      weight: weights[c.id] ?? 0,
      share: (weights[c.id] ?? 0) / total,
    })),
    weights,
    scoreFormatter: settings.scoreFormatter ?? 'sigfig3',
    chartTop: settings.chartTop ?? null,
  }
}

/**
 * GET /api/mitigation[?weight.<factor>=<n>...]: the circuits of operationsConfig.mitigation ranked
 * by risk × weighted consequence (see mitigationScore.ts), with the weights used and the factor
 * definitions. GET /api/mitigation/circuits/:id: one circuit's geometry for the map highlight.
 * Every route needs a session (401 JSON otherwise); 404 when the section is not configured.
 */
export async function mitigationRoutes(app: FastifyInstance, opts: MitigationRoutesOptions): Promise<void> {
  const settings = opts.settings === undefined ? (operationsConfig.mitigation ?? null) : opts.settings
  const data = settings ? new MitigationData(app.store, settings) : null

  // Names here; values (known factors, numbers ≥ 0, not all 0) checked by parseWeights.
  const querystring = patternQuery(
    `^${WEIGHT_PREFIX.replace('.', '\\.')}.+$`,
    'weight.<factor id>=<number ≥ 0>: weight overrides',
  )
  app.get('/api/mitigation', { schema: { querystring } }, async (request, reply) => {
    if (!settings || !data?.available) return notFound(reply, NOT_CONFIGURED)
    const parsed = parseWeights(request.query as Record<string, unknown>, settings.consequence)
    if (!parsed.ok) return badRequest(reply, parsed.parameter, parsed.message)
    const snapshot = await data.current()
    const rows = rankCircuits(snapshot.set, parsed.weights)
    reply.header('cache-control', 'no-store')
    return {
      ...describe(settings, parsed.weights),
      version: snapshot.version,
      maxima: snapshot.set.maxima,
      count: rows.length,
      rows,
    }
  })

  const geometrySchema = { params: numericIdParams }
  app.get<{ Params: { id: string } }>(
    '/api/mitigation/circuits/:id',
    { schema: geometrySchema },
    async (request, reply) => {
      if (!data?.available) return notFound(reply, NOT_CONFIGURED)
      const raw = request.params.id
      const circuit = await data.geometry(Number(raw))
      if (!circuit) return notFound(reply, `no circuit ${raw}`)
      reply.header('cache-control', 'no-store')
      return circuit
    },
  )
}
