import { Button, FormGroup, InputGroup } from '@blueprintjs/core'
import { useEffect, useRef } from 'react'
import { formValue } from './formValue'

interface Props {
  busy: boolean
  error: string | null
  onSubmit(phone: string): void
  onBack(): void
}

/**
 * Phone enrolment before the SMS step, for a member without an SMS phone (invited, or whose phone an
 * administrator removed): the code goes to this number, which is kept once the code is verified.
 */
export function PhoneStep({ busy, error, onSubmit, onBack }: Props) {
  const phoneRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (!busy) phoneRef.current?.focus()
  }, [busy, error])
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit(formValue(event.currentTarget, 'phone').trim())
      }}
    >
      <p className="bp6-text-muted">
        Signing in needs a code sent by SMS. Enter the mobile number to send it to; it is kept for your next
        sign-ins.
      </p>
      <FormGroup
        label="Mobile phone"
        labelFor="login-phone"
        helperText="With the country code, e.g. +1 505 555 0123"
      >
        <InputGroup
          id="login-phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          required
          disabled={busy}
          inputRef={phoneRef}
        />
      </FormGroup>
      <Button type="submit" intent="primary" fill loading={busy} disabled={busy}>
        Send code
      </Button>
      <div className="emberline-auth-actions">
        <Button variant="minimal" size="small" onClick={onBack} disabled={busy}>
          Back
        </Button>
      </div>
    </form>
  )
}
