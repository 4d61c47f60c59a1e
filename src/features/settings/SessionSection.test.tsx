import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { SessionContext, type SessionValue } from '../session'
import { SessionSection } from './SessionSection'

function render(value: SessionValue, timeZone = 'UTC'): string {
  return renderToStaticMarkup(
    <SessionContext.Provider value={value}>
      <SessionSection timeZonePreference={timeZone} />
    </SessionContext.Provider>,
  )
}

const session = { sessionId: 's', memberId: 'm', expiresAt: Date.parse('2030-03-06T21:30:00Z') }
const base: SessionValue = { status: 'loggedIn', session, expiringSoon: false, logout: () => undefined }

describe('SessionSection', () => {
  it('shows the expiry in the preferred time zone', () => {
    const html = render(base)
    expect(html).toContain('Mar 6, 2030, 9:30 PM UTC')
    expect(render(base, 'America/Denver')).toContain('2:30 PM MST')
    expect(html).not.toContain('Expiring soon')
  })

  it("marks a session in its last minutes as 'Expiring soon'", () => {
    expect(render({ ...base, expiringSoon: true })).toContain('Expiring soon')
  })

  it('offers signing out of all sessions', () => {
    expect(render(base)).toContain('Sign out of all sessions')
  })
})
