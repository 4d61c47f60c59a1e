import { Button, FormGroup, HTMLSelect, InputGroup, PopoverNext } from '@blueprintjs/core'
import { useState, type FormEvent } from 'react'
import type { NewFilter } from './attributeTablesMachine'
import type { TableDefinition } from '../../shared/config'
import { columnId } from './columnId'
import { NUMBER_OPERATORS, OPERATOR_SYMBOLS, isNumberOperator, type NumberOperator } from './tableFilter'

interface FormProps {
  definition: TableDefinition
  onAdd: (filter: NewFilter) => void
}

function FilterForm({ definition, onAdd }: FormProps) {
  const columns = definition.columns.filter((c) => c.filterable)
  const [field, setField] = useState(columns[0]?.key ?? '')
  const [operator, setOperator] = useState<NumberOperator>('eq')
  const [value, setValue] = useState('')
  const column = columns.find((c) => c.key === field)
  const numeric = column?.type === 'number'
  const number = Number(value)
  const valid = column !== undefined && value.trim() !== '' && (!numeric || Number.isFinite(number))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!column || !valid) return
    onAdd(
      numeric
        ? { columnType: 'number', field: column.key, operator, value: number }
        : { columnType: 'string', field: column.key, operator: 'contains', value: value.trim() },
    )
    setValue('')
  }
  return (
    <form className="emberline-add-filter" onSubmit={submit} aria-label="Add filter">
      <FormGroup label="Column" labelFor="emberline-filter-column">
        <HTMLSelect
          id="emberline-filter-column"
          name="column"
          fill
          value={field}
          onChange={(e) => setField(e.target.value)}
        >
          {columns.map((c) => (
            <option key={columnId(c)} value={c.key}>
              {c.label}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="Condition" labelFor="emberline-filter-operator">
        {numeric ? (
          <HTMLSelect
            id="emberline-filter-operator"
            name="operator"
            fill
            value={operator}
            onChange={(e) => isNumberOperator(e.target.value) && setOperator(e.target.value)}
          >
            {NUMBER_OPERATORS.map((op) => (
              <option key={op} value={op}>
                {OPERATOR_SYMBOLS[op]}
              </option>
            ))}
          </HTMLSelect>
        ) : (
          <InputGroup id="emberline-filter-operator" readOnly value={OPERATOR_SYMBOLS.contains} />
        )}
      </FormGroup>
      <FormGroup label="Value" labelFor="emberline-filter-value">
        <InputGroup
          id="emberline-filter-value"
          name="value"
          type={numeric ? 'number' : 'text'}
          step="any"
          autoFocus
          value={value}
          onValueChange={setValue}
        />
      </FormGroup>
      <Button type="submit" intent="primary" icon="add" text="Add filter" disabled={!valid} fill />
    </form>
  )
}

/** The "Filter" button: a popover form that adds a filter on a filterable column, then closes. */
export function AddFilterForm(props: FormProps) {
  const [open, setOpen] = useState(false)
  if (!props.definition.columns.some((c) => c.filterable)) return null
  const add = (filter: NewFilter) => {
    setOpen(false)
    props.onAdd(filter)
  }
  return (
    <PopoverNext
      isOpen={open}
      onInteraction={setOpen}
      content={<FilterForm definition={props.definition} onAdd={add} />}
      placement="bottom-start"
    >
      <Button
        icon="filter"
        text="Filter"
        variant="minimal"
        size="small"
        className="emberline-add-filter-button"
      />
    </PopoverNext>
  )
}
