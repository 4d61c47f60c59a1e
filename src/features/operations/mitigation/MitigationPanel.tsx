import { Callout, NonIdealState, Spinner } from '@blueprintjs/core'
import { lazy, Suspense, useMemo, useState } from 'react'
import type { RankedCircuit } from './mitigationApi'
import './mitigation.css'
import { MitigationTable } from './MitigationTable'
import { useCircuitHighlight } from './useCircuitHighlight'
import { useMitigationRanking } from './useMitigationRanking'
import { WeightControls } from './WeightControls'
import { differsFromDefaults, parseWeightText, weightTexts, withTypedWeight } from './weightTexts'

// ApexCharts is large: the chart is its own chunk, fetched when the first ranking arrives.
const MitigationChart = lazy(() => import('./MitigationChart').then((m) => ({ default: m.MitigationChart })))

/** The /MitigationAnalysis panel: weights, the ranked circuits and the ranking chart. */
export function MitigationPanel() {
  const [weights, setWeights] = useState<Record<string, number> | null>(null)
  const [typed, setTyped] = useState<Record<string, string>>({})
  const [selected, setSelected] = useState<RankedCircuit | null>(null)
  const { ranking, pending, error } = useMitigationRanking(weights)
  useCircuitHighlight(selected)

  const factors = useMemo(() => ranking?.factors ?? [], [ranking])
  const invalid = useMemo(
    () => new Set(Object.entries(typed).flatMap(([id, t]) => (parseWeightText(t) === null ? [id] : []))),
    [typed],
  )

  if (error?.status === 404) {
    return <NonIdealState icon="disable" title="Mitigation Analysis" description={error.message} />
  }
  if (!ranking) {
    if (error)
      return (
        <Callout intent="danger" title="Could not load the ranking">
          {error.message}
        </Callout>
      )
    return <Spinner size={32} aria-label="Loading the ranking" />
  }

  function change(factorId: string, text: string) {
    setTyped((t) => ({ ...t, [factorId]: text }))
    const next = withTypedWeight(factors, weights, factorId, text)
    if (next) setWeights(next)
  }

  function reset() {
    setTyped({})
    setWeights(null)
  }

  return (
    <section
      className="el-mitigation-panel"
      aria-label="Mitigation Analysis"
      data-status={pending ? 'loading' : error ? 'error' : 'ready'}
      data-version={ranking.version}
    >
      <div className="el-mitigation-side">
        <WeightControls
          factors={factors}
          texts={weightTexts(factors, typed, weights)}
          invalid={invalid}
          onChange={change}
          onReset={reset}
          changed={differsFromDefaults(factors, weights) || invalid.size > 0}
        />
        {error ? (
          <Callout intent="danger" compact>
            {error.message}
          </Callout>
        ) : null}
      </div>
      <div
        className={
          pending || error ? 'el-mitigation-table-wrap el-mitigation-stale' : 'el-mitigation-table-wrap'
        }
      >
        <MitigationTable ranking={ranking} selectedId={selected?.id ?? null} onSelect={setSelected} />
      </div>
      <div className="el-mitigation-chart-wrap">
        <Suspense fallback={<Spinner size={32} aria-label="Loading the chart" />}>
          <MitigationChart ranking={ranking} />
        </Suspense>
      </div>
    </section>
  )
}
