import { Button, FormGroup, InputGroup } from '@blueprintjs/core'
import { useEffect, useRef } from 'react'
import { appConfig } from '../../shared/config'
import { formValue } from './formValue'

interface Props {
  busy: boolean
  sending: boolean
  error: string | null
  onSubmit(code: string): void
  onResend(): void
  onBack(): void
}

/** The SMS one-time-code step, with resend. */
export function CodeStep({ busy, sending, error, onSubmit, onResend, onBack }: Props) {
  const codeRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (!busy) codeRef.current?.focus()
  }, [busy, error])
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit(formValue(event.currentTarget, 'code').trim())
      }}
    >
      <p className="bp6-text-muted">Enter the code we sent to your phone.</p>
      <FormGroup label="SMS code" labelFor="login-code">
        <InputGroup
          id="login-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={appConfig.identity.otp.digits}
          required
          disabled={busy}
          inputRef={codeRef}
        />
      </FormGroup>
      <Button type="submit" intent="primary" fill loading={busy && !sending} disabled={busy}>
        Verify
      </Button>
      <div className="emberline-auth-actions">
        <Button variant="minimal" size="small" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button variant="minimal" size="small" onClick={onResend} loading={sending} disabled={busy}>
          Resend code
        </Button>
      </div>
    </form>
  )
}
