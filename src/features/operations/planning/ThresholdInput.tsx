import { InputGroup } from '@blueprintjs/core'
import { useState } from 'react'

/** What-if threshold (mph) of one circuit: committed on Enter or blur; empty = back to the stored one. */
export function ThresholdInput({
  circuitKey,
  value,
  onCommit,
}: {
  circuitKey: string
  value: number
  onCommit: (mph: number | null) => void
}) {
  const [text, setText] = useState(String(value))
  const commit = () => {
    const trimmed = text.trim()
    if (trimmed === '') return onCommit(null)
    const mph = Number(trimmed)
    if (Number.isFinite(mph) && mph >= 0 && mph !== value) onCommit(mph)
    else setText(String(value))
  }
  return (
    <InputGroup
      size="small"
      type="number"
      min={0}
      step={1}
      value={text}
      className="el-planning-threshold"
      aria-label={`What-if threshold for ${circuitKey} (mph)`}
      data-key={circuitKey}
      onValueChange={setText}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit()
      }}
      onClick={(e) => e.stopPropagation()}
    />
  )
}
