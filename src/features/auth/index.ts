export { LoginScreen } from './LoginScreen'
export { ResetScreen } from './ResetScreen'
export { loginMachine } from './loginMachine'
export type { AuthClient, AuthOutcome } from './authClient'
