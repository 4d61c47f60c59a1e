import { useSelector } from '@xstate/react'
import { createActor, type Actor, type SnapshotFrom } from 'xstate'
import { riskScoreMachine } from './riskScoreMachine'

type RiskScoreActor = Actor<typeof riskScoreMachine>
export type RiskScoreSnapshot = SnapshotFrom<typeof riskScoreMachine>

let store: RiskScoreActor | null = null

/** The app-wide risk-score store, created on first use so nothing is fetched before the chart shows. */
export function riskScoreStore(): RiskScoreActor {
  if (!store) store = createActor(riskScoreMachine).start()
  return store
}

/** The store action of spec §7: fetch the PSPS risk-score series (once). */
export function fetchPSPSRiskScore(): void {
  riskScoreStore().send({ type: 'fetchPSPSRiskScore' })
}

export function useRiskScore<T>(select: (snapshot: RiskScoreSnapshot) => T): T {
  return useSelector(riskScoreStore(), select)
}
