import { HTMLTable } from '@blueprintjs/core'
import type { DocField } from './buildDocumentation'

/** Popup fields or table columns with their meaning and format. */
export function FieldTable({ caption, fields }: { caption: string; fields: readonly DocField[] }) {
  const showFilter = fields.some((f) => f.filterable !== undefined)
  return (
    <HTMLTable compact striped className="emberline-docs-fields">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Meaning</th>
          <th scope="col">Shown as</th>
          {showFilter ? <th scope="col">Filter</th> : null}
        </tr>
      </thead>
      <tbody>
        {fields.map((f, i) => (
          <tr key={`${f.key}-${i}`}>
            <th scope="row">
              {f.label} <code>{f.key}</code>
            </th>
            <td>{f.meaning ?? ''}</td>
            <td>{f.format ?? (f.type === 'number' ? 'number' : 'text')}</td>
            {showFilter ? (
              <td>{f.filterable ? (f.type === 'number' ? 'compare' : 'contains') : 'no'}</td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  )
}
