import { useEffect } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { appConfig } from '../../shared/config'

/** After sign-in, go to the asked-for page (?next=, same-site paths only) or the default route. */
export function useSignedInRedirect(done: boolean): void {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  useEffect(() => {
    if (!done) return
    const next = params.get('next')
    const safe =
      next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null
    void navigate(safe ?? appConfig.routes.default, { replace: true })
  }, [done, navigate, params])
}
