import { useEffect } from 'react'
import { appConfig } from '../../shared/config'
import { useSession } from '../../features/session'
import { showToast } from '../toasts'

/** A warning toast when the session starts counting as expiring soon (spec §4: under 5 minutes). */
export function useExpiringSoonNotice(): void {
  const { expiringSoon } = useSession()
  useEffect(() => {
    if (!expiringSoon) return
    const minutes = appConfig.session.expiringSoonMinutes
    void showToast('warning', `Your session expires in less than ${minutes} minutes.`)
  }, [expiringSoon])
}
