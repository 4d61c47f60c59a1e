import { Button, FormGroup, InputGroup } from '@blueprintjs/core'
import { useState, type Ref } from 'react'

interface Props {
  id: string
  name: string
  label: string
  autoComplete: 'current-password' | 'new-password'
  disabled: boolean
  autoFocus?: boolean
  inputRef?: Ref<HTMLInputElement>
}

/** A password input with a show/hide toggle. */
export function PasswordField({ id, name, label, autoComplete, disabled, autoFocus, inputRef }: Props) {
  const [shown, setShown] = useState(false)
  return (
    <FormGroup label={label} labelFor={id}>
      <InputGroup
        id={id}
        name={name}
        type={shown ? 'text' : 'password'}
        autoComplete={autoComplete}
        required
        disabled={disabled}
        autoFocus={autoFocus}
        inputRef={inputRef}
        rightElement={
          <Button
            variant="minimal"
            icon={shown ? 'eye-off' : 'eye-open'}
            aria-label={shown ? 'Hide password' : 'Show password'}
            aria-pressed={shown}
            onClick={() => setShown(!shown)}
          />
        }
      />
    </FormGroup>
  )
}
