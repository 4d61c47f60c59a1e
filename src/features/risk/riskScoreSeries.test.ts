import { describe, expect, it, vi } from 'vitest'
import { fetchRiskScoreSeries, parseRiskScoreSeries } from './riskScoreSeries'

describe('parseRiskScoreSeries', () => {
  it("reads the first record's timestamp and risk_score_psps lists", () => {
    const body = {
      records: [
        { timestamp: ['2025-03-05T12:00:00Z', '2025-03-05T13:00:00Z'], risk_score_psps: [0.2, 0.85] },
        { timestamp: ['ignored'], risk_score_psps: [1] },
      ],
    }
    expect(parseRiskScoreSeries(body)).toEqual({
      labels: ['2025-03-05T12:00:00Z', '2025-03-05T13:00:00Z'],
      scores: [0.2, 0.85],
    })
  })

  it('treats no records as an empty series', () => {
    expect(parseRiskScoreSeries({ records: [] })).toEqual({ labels: [], scores: [] })
  })

  it('cuts unequal lists to the shorter and turns non-numbers into gaps', () => {
    const parsed = parseRiskScoreSeries({
      records: [{ timestamp: ['a', 'b', 'c'], risk_score_psps: [0.1, null] }],
    })
    expect(parsed.labels).toEqual(['a', 'b'])
    expect(parsed.scores[0]).toBe(0.1)
    expect(parsed.scores[1]).toBeNaN()
  })

  it('rejects other shapes', () => {
    expect(() => parseRiskScoreSeries({})).toThrow(/no records/)
    expect(() => parseRiskScoreSeries({ records: [{ timestamp: [] }] })).toThrow(/risk_score_psps/)
    expect(() => parseRiskScoreSeries({ records: ['x'] })).toThrow(/not an object/)
  })
})

describe('fetchRiskScoreSeries', () => {
  it('requests the configured records path and parses the answer', async () => {
    const fetcher = vi.fn(
      async (_url: string) =>
        new Response(JSON.stringify({ records: [{ timestamp: ['t'], risk_score_psps: [0.5] }] }), {
          status: 200,
        }),
    )
    await expect(fetchRiskScoreSeries(fetcher)).resolves.toEqual({ labels: ['t'], scores: [0.5] })
    expect(fetcher).toHaveBeenCalledWith('/api/data/demo/public_safety_power_shutoff_risk_score/records')
  })

  it('fails on an HTTP error', async () => {
    const fetcher = vi.fn(async () => new Response('{}', { status: 401 }))
    await expect(fetchRiskScoreSeries(fetcher)).rejects.toThrow(/HTTP 401/)
  })
})
