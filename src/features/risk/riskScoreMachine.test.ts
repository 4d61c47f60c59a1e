import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { riskScoreMachine } from './riskScoreMachine'
import type { RiskScoreSeries } from './riskScoreSeries'

const series: RiskScoreSeries = {
  labels: ['2025-03-05T12:00:00Z', '2025-03-05T13:00:00Z'],
  scores: [0.4, 0.9],
}

function actorWith(load: () => Promise<RiskScoreSeries>) {
  const calls = vi.fn(load)
  const machine = riskScoreMachine.provide({ actors: { loadRiskScoreSeries: fromPromise(() => calls()) } })
  return { actor: createActor(machine).start(), calls }
}

afterEach(() => vi.restoreAllMocks())

describe('riskScoreMachine', () => {
  it('waits for fetchPSPSRiskScore before loading', () => {
    const { actor, calls } = actorWith(async () => series)
    expect(actor.getSnapshot().value).toBe('idle')
    expect(calls).not.toHaveBeenCalled()
  })

  it('holds the series as labels and scores once loaded', async () => {
    const { actor } = actorWith(async () => series)
    actor.send({ type: 'fetchPSPSRiskScore' })
    const done = await waitFor(actor, (s) => s.matches('loaded'))
    expect(done.context.labels).toEqual(series.labels)
    expect(done.context.scores).toEqual(series.scores)
  })

  it('fetches only once however often the action is sent', async () => {
    const { actor, calls } = actorWith(async () => series)
    actor.send({ type: 'fetchPSPSRiskScore' })
    actor.send({ type: 'fetchPSPSRiskScore' })
    await waitFor(actor, (s) => s.matches('loaded'))
    actor.send({ type: 'fetchPSPSRiskScore' })
    expect(calls).toHaveBeenCalledTimes(1)
  })

  it('only logs a failure and keeps the series empty', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { actor } = actorWith(async () => {
      throw new Error('HTTP 503')
    })
    actor.send({ type: 'fetchPSPSRiskScore' })
    const failed = await waitFor(actor, (s) => s.matches('failed'))
    expect(failed.context).toEqual({ labels: [], scores: [], error: 'HTTP 503' })
    expect(log).toHaveBeenCalledWith('Failed to fetch the PSPS risk score', 'HTTP 503')
  })
})
