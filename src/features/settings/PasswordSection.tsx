import { Button, Callout, FormGroup, H2, InputGroup, Intent } from '@blueprintjs/core'
import { useState, type FormEvent } from 'react'
import { appConfig } from '../../shared/config'
import { changePassword, SettingsError } from './settingsApi'

type Outcome = { readonly ok: true } | { readonly ok: false; readonly message: string } | null

/** Change password: the current one, then the new one twice (POST /api/me/password). */
export function PasswordSection() {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirm, setConfirm] = useState('')
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const minLength = appConfig.identity.passwordMinLength
  const mismatch = confirm !== '' && confirm !== next

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (mismatch || !current || !next) return
    setBusy(true)
    setOutcome(null)
    try {
      await changePassword(current, next)
      setCurrent('')
      setNext('')
      setConfirm('')
      setOutcome({ ok: true })
    } catch (error) {
      setOutcome({ ok: false, message: error instanceof SettingsError ? error.message : String(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="settings-password">
      <H2 id="settings-password">Change password</H2>
      <form className="emberline-settings-form" onSubmit={(e) => void submit(e)} data-testid="password-form">
        <FormGroup label="Current password" labelFor="settings-current-password">
          <InputGroup
            id="settings-current-password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={current}
            onValueChange={setCurrent}
            required
          />
        </FormGroup>
        <FormGroup
          label="New password"
          labelFor="settings-new-password"
          helperText={`At least ${minLength} characters.`}
        >
          <InputGroup
            id="settings-new-password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            minLength={minLength}
            value={next}
            onValueChange={setNext}
            required
          />
        </FormGroup>
        <FormGroup
          label="Repeat the new password"
          labelFor="settings-confirm-password"
          intent={mismatch ? Intent.DANGER : Intent.NONE}
          helperText={mismatch ? 'The new passwords do not match.' : undefined}
        >
          <InputGroup
            id="settings-confirm-password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            intent={mismatch ? Intent.DANGER : Intent.NONE}
            value={confirm}
            onValueChange={setConfirm}
            required
          />
        </FormGroup>
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          text="Change password"
          loading={busy}
          disabled={mismatch}
        />
      </form>
      {outcome?.ok ? (
        <Callout intent="success" data-testid="password-changed">
          Your password has been changed. Your other sessions have been signed out.
        </Callout>
      ) : null}
      {outcome && !outcome.ok ? (
        <Callout intent="danger" data-testid="password-error">
          {outcome.message}
        </Callout>
      ) : null}
    </section>
  )
}
