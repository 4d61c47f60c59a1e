import { Button } from '@blueprintjs/core'
import { useSearchParams } from 'react-router'
import { appConfig } from '../../shared/config'
import { AuthCard } from './AuthCard'
import { CodeStep } from './CodeStep'
import { PhoneStep } from './PhoneStep'
import { formValue } from './formValue'
import { PasswordField } from './PasswordField'
import { useLoginFlow } from './useLoginFlow'

/** /login/Reset: a new password for the token of the e-mailed link (then the SMS code if required). */
export function ResetScreen() {
  const [params] = useSearchParams()
  const { state, send } = useLoginFlow('reset', params.get('token') ?? '')
  const { error } = state.context

  if (state.matches('phoneEntry')) {
    return (
      <AuthCard title="Reset password" error={error}>
        <PhoneStep
          busy={false}
          error={error}
          onSubmit={(phone) => send({ type: 'SUBMIT_PHONE', phone })}
          onBack={() => window.location.assign(appConfig.routes.login)}
        />
      </AuthCard>
    )
  }

  if (state.matches('codeEntry') || state.matches('sendingSms') || state.matches('verifying')) {
    return (
      <AuthCard title="Reset password" error={error}>
        <CodeStep
          busy={!state.matches('codeEntry')}
          sending={state.matches('sendingSms')}
          error={error}
          onSubmit={(code) => send({ type: 'SUBMIT_CODE', code })}
          onResend={() => send({ type: 'RESEND' })}
          onBack={() => window.location.assign(appConfig.routes.login)}
        />
      </AuthCard>
    )
  }

  const busy = !state.matches('resetForm')
  return (
    <AuthCard title="Reset password" error={error}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          send({ type: 'SUBMIT_RESET', password: formValue(event.currentTarget, 'newPassword') })
        }}
      >
        <PasswordField
          id="reset-password"
          name="newPassword"
          label="New password"
          autoComplete="new-password"
          disabled={busy}
          autoFocus
        />
        <Button type="submit" intent="primary" fill loading={busy} disabled={busy}>
          Set password
        </Button>
      </form>
    </AuthCard>
  )
}
