import { appConfig } from '../../shared/config'
import { authFetch } from '../session'

/** The PSPS risk-score series (spec §3): parallel lists held as labels and scores. */
export interface RiskScoreSeries {
  readonly labels: readonly string[]
  readonly scores: readonly number[]
}

/** Field names of the series record (appConfig.chart; the spec's names when not configured). */
export interface SeriesFields {
  readonly timestampField?: string
  readonly scoreField?: string
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads the first record's timestamp and score lists from a records response. No records
 * is an empty series; any other shape is an error. Lists of unequal length are cut to the
 * shorter; a score that is not a number becomes NaN (a gap).
 */
export function parseRiskScoreSeries(body: unknown, fields: SeriesFields = appConfig.chart): RiskScoreSeries {
  if (!isRecord(body) || !Array.isArray(body.records))
    throw new Error('Risk score response has no records list')
  const first: unknown = body.records[0]
  if (first === undefined) return { labels: [], scores: [] }
  if (!isRecord(first)) throw new Error('Risk score record is not an object')
  const timestampField = fields.timestampField ?? 'timestamp'
  const scoreField = fields.scoreField ?? 'risk_score_psps'
  const timestamps = first[timestampField]
  const scores = first[scoreField]
  if (!Array.isArray(timestamps) || !Array.isArray(scores)) {
    throw new Error(`Risk score record lacks ${timestampField} or ${scoreField} lists`)
  }
  const count = Math.min(timestamps.length, scores.length)
  return {
    labels: timestamps.slice(0, count).map((t) => String(t)),
    scores: scores.slice(0, count).map((s) => (typeof s === 'number' ? s : Number.NaN)),
  }
}

/** GET /api/<appConfig.chart.dataPath> with the session token, parsed. Throws on failure. */
export async function fetchRiskScoreSeries(fetcher: typeof authFetch = authFetch): Promise<RiskScoreSeries> {
  const path = appConfig.chart.dataPath
  if (!path) throw new Error('appConfig.chart.dataPath is not configured')
  const response = await fetcher(`/api/${path}`)
  if (!response.ok) throw new Error(`Risk score request failed with HTTP ${response.status}`)
  return parseRiskScoreSeries(await response.json())
}
