import { Button, H2, Intent, Tag } from '@blueprintjs/core'
import { useEffect, useState } from 'react'
import { appConfig } from '../../shared/config'
import { useSession } from '../session'
import { displayTimeZone, formatExpiry, formatRemaining } from './sessionExpiry'
import { SignOutAllButton } from './SignOutAllButton'

/** Session expiry (with the 'expiring soon' state of spec §4) and sign-out of every session. */
export function SessionSection({ timeZonePreference }: { timeZonePreference: string | undefined }) {
  const { session, expiringSoon, logout } = useSession()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000)
    return () => window.clearInterval(timer)
  }, [])
  const zone = displayTimeZone(timeZonePreference)
  return (
    <section aria-labelledby="settings-session" data-testid="settings-session">
      <H2 id="settings-session">Session</H2>
      {session ? (
        <p>
          Signed in until{' '}
          <strong>{formatExpiry(session.expiresAt, appConfig.formatting.locale, zone)}</strong> (
          {formatRemaining(session.expiresAt, now)} left){' '}
          {expiringSoon ? (
            <Tag intent={Intent.WARNING} data-testid="expiring-soon">
              Expiring soon
            </Tag>
          ) : null}
        </p>
      ) : (
        <p>Not signed in.</p>
      )}
      <div className="emberline-settings-actions">
        <Button text="Sign out" onClick={logout} />
        <SignOutAllButton onDone={logout} />
      </div>
    </section>
  )
}
