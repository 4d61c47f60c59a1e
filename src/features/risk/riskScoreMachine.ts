import { assign, fromPromise, setup } from 'xstate'
import { fetchRiskScoreSeries, type RiskScoreSeries } from './riskScoreSeries'

export interface RiskScoreContext extends RiskScoreSeries {
  readonly error: string | null
}

export type RiskScoreEvent = { type: 'fetchPSPSRiskScore' }

/**
 * The forecast chart's store: `fetchPSPSRiskScore` loads the series once (spec §4); later
 * requests are ignored. A failure is only logged (spec §8) and leaves the series empty.
 */
export const riskScoreMachine = setup({
  types: { context: {} as RiskScoreContext, events: {} as RiskScoreEvent },
  actors: {
    loadRiskScoreSeries: fromPromise<RiskScoreSeries>(() => fetchRiskScoreSeries()),
  },
  actions: {
    storeSeries: assign((_, series: RiskScoreSeries) => ({ labels: series.labels, scores: series.scores })),
    logFailure: assign((_, error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      console.error('Failed to fetch the PSPS risk score', message)
      return { error: message }
    }),
  },
}).createMachine({
  id: 'riskScore',
  initial: 'idle',
  context: { labels: [], scores: [], error: null },
  states: {
    idle: { on: { fetchPSPSRiskScore: 'loading' } },
    loading: {
      invoke: {
        src: 'loadRiskScoreSeries',
        onDone: { target: 'loaded', actions: { type: 'storeSeries', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    loaded: {},
    failed: {},
  },
})
