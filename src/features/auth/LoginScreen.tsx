import { Button, FormGroup, InputGroup } from '@blueprintjs/core'
import { useEffect, useRef } from 'react'
import { AuthCard } from './AuthCard'
import { CodeStep } from './CodeStep'
import { PhoneStep } from './PhoneStep'
import { formValue } from './formValue'
import { PasswordField } from './PasswordField'
import { useLoginFlow } from './useLoginFlow'

/** /login/Authenticate: e-mail and password, then the SMS code; 'Forgot password?' starts a reset. */
export function LoginScreen() {
  const { state, send } = useLoginFlow('login')
  const emailRef = useRef<HTMLInputElement>(null)
  const passwordRef = useRef<HTMLInputElement>(null)
  const { error, email } = state.context
  const busy =
    state.matches('authenticating') || state.matches('requestingReset') || state.matches('signedIn')

  useEffect(() => {
    if (state.matches('credentials') && error) passwordRef.current?.select()
  }, [state, error])

  if (state.matches('phoneEntry')) {
    return (
      <AuthCard title="Sign in" error={error}>
        <PhoneStep
          busy={false}
          error={error}
          onSubmit={(phone) => send({ type: 'SUBMIT_PHONE', phone })}
          onBack={() => send({ type: 'BACK' })}
        />
      </AuthCard>
    )
  }

  if (state.matches('codeEntry') || state.matches('sendingSms') || state.matches('verifying')) {
    return (
      <AuthCard title="Sign in" error={error}>
        <CodeStep
          busy={!state.matches('codeEntry')}
          sending={state.matches('sendingSms')}
          error={error}
          onSubmit={(code) => send({ type: 'SUBMIT_CODE', code })}
          onResend={() => send({ type: 'RESEND' })}
          onBack={() => send({ type: 'BACK' })}
        />
      </AuthCard>
    )
  }

  if (state.matches('resetRequested')) {
    return (
      <AuthCard title="Reset password" error={null}>
        <p role="status">If {email} belongs to an account, a link to reset its password is on its way.</p>
        <Button onClick={() => send({ type: 'BACK' })} autoFocus>
          Back to sign in
        </Button>
      </AuthCard>
    )
  }

  return (
    <AuthCard title="Sign in" error={error}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          const form = event.currentTarget
          send({
            type: 'SUBMIT_PASSWORD',
            email: formValue(form, 'email').trim(),
            password: formValue(form, 'password'),
          })
        }}
      >
        <FormGroup label="E-mail" labelFor="login-email">
          <InputGroup
            id="login-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            defaultValue={email}
            disabled={busy}
            inputRef={emailRef}
          />
        </FormGroup>
        <PasswordField
          id="login-password"
          name="password"
          label="Password"
          autoComplete="current-password"
          disabled={busy}
          inputRef={passwordRef}
        />
        <Button type="submit" intent="primary" fill loading={busy} disabled={busy}>
          Sign in
        </Button>
        <div className="emberline-auth-actions">
          <Button
            variant="minimal"
            size="small"
            disabled={busy}
            onClick={() => {
              const value = emailRef.current?.value.trim() ?? ''
              if (!value || !emailRef.current?.checkValidity()) {
                emailRef.current?.reportValidity()
                emailRef.current?.focus()
                return
              }
              send({ type: 'FORGOT', email: value })
            }}
          >
            Forgot password?
          </Button>
        </div>
      </form>
    </AuthCard>
  )
}
