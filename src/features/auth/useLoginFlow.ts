import { useMachine } from '@xstate/react'
import { useState } from 'react'
import { loginMachine, type LoginInput } from './loginMachine'
import { stytchAuthClient } from './stytchAuthClient'
import { getStytchClient } from '../session'
import { useSignedInRedirect } from './useSignedInRedirect'

/** The login machine over the Stytch SDK, leaving for the asked-for page once signed in. */
export function useLoginFlow(mode: 'login' | 'reset', token = '') {
  const [input] = useState<LoginInput>(() => {
    const client = stytchAuthClient(getStytchClient())
    return mode === 'reset' ? { client, mode, token } : { client, mode }
  })
  const [state, send] = useMachine(loginMachine, { input })
  useSignedInRedirect(state.status === 'done')
  return { state, send }
}
