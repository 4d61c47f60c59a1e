import { useContext } from 'react'
import { SessionContext, type SessionValue } from './SessionProvider'

/** The signed-in state (status, session, expiringSoon) and logout(); needs a SessionProvider above. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext)
  if (!value) throw new Error('useSession() needs a <SessionProvider> above it')
  return value
}
