import { Alert, Button, Callout, Intent } from '@blueprintjs/core'
import { useState } from 'react'
import { revokeAllSessions } from './settingsApi'

/** Revokes every session of the member (all devices, this one too), then signs out here. */
export function SignOutAllButton({ onDone }: { onDone: () => void }) {
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function signOutAll() {
    setBusy(true)
    setError(null)
    try {
      await revokeAllSessions()
      setConfirming(false)
      onDone()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Button intent={Intent.DANGER} text="Sign out of all sessions" onClick={() => setConfirming(true)} />
      {error ? <Callout intent="danger">{error}</Callout> : null}
      <Alert
        isOpen={confirming}
        intent={Intent.DANGER}
        icon="log-out"
        confirmButtonText="Sign out everywhere"
        cancelButtonText="Cancel"
        loading={busy}
        onConfirm={() => void signOutAll()}
        onCancel={() => setConfirming(false)}
        className="bp6-dark"
      >
        <p>This signs you out on every device and browser, including this one.</p>
      </Alert>
    </>
  )
}
