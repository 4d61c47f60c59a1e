import { HTMLTable } from '@blueprintjs/core'
import { formatValue } from '../../../shared/format'
import type { FactorScore, MitigationRanking, RankedCircuit } from './mitigationApi'

export interface MitigationTableProps {
  readonly ranking: MitigationRanking
  readonly selectedId: number | null
  readonly onSelect: (row: RankedCircuit) => void
}

const MISSING = '—'

function factorTitle(label: string, f: FactorScore | undefined, missing: boolean): string {
  if (!f) return label
  const n = formatValue('sigfig3', f.normalised)
  const c = formatValue('sigfig3', f.contribution)
  return `${label}: ${missing ? 'missing, counted as 0' : `${n} of the maximum`}; adds ${c} to the score`
}

/** The ranked circuits: rank, circuit, score, risk and each consequence factor side by side. */
export function MitigationTable({ ranking, selectedId, onSelect }: MitigationTableProps) {
  const { factors, risk } = ranking
  return (
    <HTMLTable compact interactive striped className="el-mitigation-table" data-testid="mitigation-table">
      <thead>
        <tr>
          <th>Rank</th>
          <th>{ranking.key.label}</th>
          <th>Score</th>
          <th>{risk.label}</th>
          {factors.map((f) => (
            <th key={f.id} data-factor={f.id}>
              {f.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ranking.rows.map((row) => {
          const riskMissing = row.missing.includes('risk')
          return (
            <tr
              key={row.id}
              data-key={row.key}
              data-rank={row.rank}
              aria-selected={row.id === selectedId}
              className={row.id === selectedId ? 'el-mitigation-selected' : undefined}
              tabIndex={0}
              onClick={() => onSelect(row)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault()
                  onSelect(row)
                }
              }}
            >
              <td>{row.rank}</td>
              <td>{row.key}</td>
              <td data-score={row.score}>{formatValue(ranking.scoreFormatter, row.score)}</td>
              <td title={riskMissing ? `${risk.label}: missing, counted as 0` : undefined}>
                {riskMissing ? MISSING : formatValue(risk.formatter, row.risk.value)}
              </td>
              {factors.map((f) => {
                const cell = row.factors[f.id]
                const missing = row.missing.includes(f.id)
                return (
                  <td key={f.id} title={factorTitle(f.label, cell, missing)}>
                    {missing ? MISSING : formatValue(f.formatter, cell?.value)}
                  </td>
                )
              })}
            </tr>
          )
        })}
      </tbody>
    </HTMLTable>
  )
}
