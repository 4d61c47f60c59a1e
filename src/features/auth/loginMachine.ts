import { assign, fromPromise, setup } from 'xstate'
import { appConfig } from '../../shared/config'
import { failureMessage, sendFailure, stepFailure, type AuthClient, type AuthOutcome } from './authClient'

export type LoginInput =
  { client: AuthClient; mode: 'login' } | { client: AuthClient; mode: 'reset'; token: string }

export interface LoginContext {
  client: AuthClient
  mode: 'login' | 'reset'
  token: string
  email: string
  memberId: string
  organizationId: string
  /** The phone a member without one enrols (sent with the SMS code); '' otherwise. */
  enrolPhone: string
  /** The message of the last failure, exactly as config words it. */
  error: string | null
}

export type LoginEvent =
  | { type: 'SUBMIT_PASSWORD'; email: string; password: string }
  | { type: 'SUBMIT_CODE'; code: string }
  | { type: 'SUBMIT_PHONE'; phone: string }
  | { type: 'RESEND' }
  | { type: 'FORGOT'; email: string }
  | { type: 'SUBMIT_RESET'; password: string }
  | { type: 'BACK' }

type Mfa = Extract<AuthOutcome, { kind: 'mfa' }>

/** `setStepError`'s params for a step whose refusal says `refused` (e.g. 'Invalid SMS code'). */
const refusedWith =
  (refused: string) =>
  ({ event }: { event: { error: unknown } }) => ({ error: event.error, refused })

/** Sign-in flow of spec §4: password → intermediate session → SMS code → session; reset by e-mail. */
export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
  },
  actors: {
    passwordLogin: fromPromise<AuthOutcome, { client: AuthClient; email: string; password: string }>(
      ({ input }) => input.client.passwordLogin(input.email, input.password),
    ),
    sendSms: fromPromise<
      void,
      { client: AuthClient; memberId: string; organizationId: string; enrolPhone: string }
    >(({ input }) =>
      input.enrolPhone
        ? input.client.sendSms(input.memberId, input.organizationId, input.enrolPhone)
        : input.client.sendSms(input.memberId, input.organizationId),
    ),
    verifySms: fromPromise<
      void,
      { client: AuthClient; memberId: string; organizationId: string; code: string }
    >(({ input }) => input.client.verifySms(input.memberId, input.organizationId, input.code)),
    startReset: fromPromise<void, { client: AuthClient; email: string }>(({ input }) =>
      input.client.startPasswordReset(input.email),
    ),
    resetPassword: fromPromise<AuthOutcome, { client: AuthClient; token: string; password: string }>(
      ({ input }) => input.client.resetPassword(input.token, input.password),
    ),
  },
  guards: {
    isResetMode: ({ context }) => context.mode === 'reset',
    gotSession: (_, outcome: AuthOutcome) => outcome.kind === 'session',
    smsAlreadySent: (_, outcome: AuthOutcome) => outcome.kind === 'mfa' && outcome.smsAlreadySent,
    needsPhone: (_, outcome: AuthOutcome) => outcome.kind === 'mfa' && !outcome.phoneEnrolled,
    enrolling: ({ context }) => context.enrolPhone !== '',
  },
  actions: {
    clearError: assign({ error: null }),
    setError: assign((_, message: string) => ({ error: message })),
    // A step's own words when the provider refused; 'Unable to contact our servers.' when it was down.
    setStepError: assign((_, params: { error: unknown; refused: string }) => ({
      error: stepFailure(params.error, params.refused, appConfig.messages.unreachable),
    })),
    setSendError: assign((_, error: unknown) => ({
      error: sendFailure(error, appConfig.messages.smsSendFailed, appConfig.messages.unreachable),
    })),
    rememberMember: assign((_, outcome: AuthOutcome) => {
      const mfa = outcome as Mfa
      return { memberId: mfa.memberId, organizationId: mfa.organizationId }
    }),
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    client: input.client,
    mode: input.mode,
    token: input.mode === 'reset' ? input.token : '',
    email: '',
    memberId: '',
    organizationId: '',
    enrolPhone: '',
    error: null,
  }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'isResetMode', target: 'resetForm' }, { target: 'credentials' }] },
    credentials: {
      on: {
        SUBMIT_PASSWORD: {
          target: 'authenticating',
          actions: [assign({ email: ({ event }) => event.email }), 'clearError'],
        },
        FORGOT: {
          target: 'requestingReset',
          actions: [assign({ email: ({ event }) => event.email }), 'clearError'],
        },
      },
    },
    authenticating: {
      invoke: {
        src: 'passwordLogin',
        input: ({ context, event }) => ({
          client: context.client,
          email: context.email,
          password: event.type === 'SUBMIT_PASSWORD' ? event.password : '',
        }),
        onDone: [
          { guard: { type: 'gotSession', params: ({ event }) => event.output }, target: 'signedIn' },
          {
            guard: { type: 'needsPhone', params: ({ event }) => event.output },
            target: 'phoneEntry',
            actions: { type: 'rememberMember', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'smsAlreadySent', params: ({ event }) => event.output },
            target: 'codeEntry',
            actions: { type: 'rememberMember', params: ({ event }) => event.output },
          },
          { target: 'sendingSms', actions: { type: 'rememberMember', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'credentials',
          actions: { type: 'setStepError', params: refusedWith(appConfig.messages.invalidCredentials) },
        },
      },
    },
    // A member without an SMS phone names one; the code sent there enrols it once verified.
    phoneEntry: {
      on: {
        SUBMIT_PHONE: {
          target: 'sendingSms',
          actions: [assign({ enrolPhone: ({ event }) => event.phone }), 'clearError'],
        },
        BACK: { target: 'credentials', actions: 'clearError' },
      },
    },
    sendingSms: {
      invoke: {
        src: 'sendSms',
        input: ({ context }) => ({
          client: context.client,
          memberId: context.memberId,
          organizationId: context.organizationId,
          enrolPhone: context.enrolPhone,
        }),
        onDone: { target: 'codeEntry' },
        onError: [
          {
            // A number the provider refuses: back to the phone, with its reason.
            guard: 'enrolling',
            target: 'phoneEntry',
            actions: {
              type: 'setError',
              params: ({ event }: { event: { error: unknown } }) =>
                failureMessage(event.error, appConfig.messages.unreachable),
            },
          },
          {
            target: 'codeEntry',
            actions: {
              type: 'setSendError',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
          },
        ],
      },
    },
    codeEntry: {
      on: {
        SUBMIT_CODE: { target: 'verifying', actions: 'clearError' },
        RESEND: { target: 'sendingSms', actions: 'clearError' },
        BACK: { target: 'credentials', actions: 'clearError' },
      },
    },
    verifying: {
      invoke: {
        src: 'verifySms',
        input: ({ context, event }) => ({
          client: context.client,
          memberId: context.memberId,
          organizationId: context.organizationId,
          code: event.type === 'SUBMIT_CODE' ? event.code : '',
        }),
        onDone: { target: 'signedIn' },
        onError: {
          target: 'codeEntry',
          actions: { type: 'setStepError', params: refusedWith(appConfig.messages.invalidSmsCode) },
        },
      },
    },
    requestingReset: {
      invoke: {
        src: 'startReset',
        input: ({ context }) => ({ client: context.client, email: context.email }),
        onDone: { target: 'resetRequested' },
        onError: {
          target: 'credentials',
          // 'Unable to contact our servers.' only when the API was unreachable (spec §8).
          actions: {
            type: 'setError',
            params: ({ event }: { event: { error: unknown } }) =>
              failureMessage(event.error, appConfig.messages.unreachable),
          },
        },
      },
    },
    resetRequested: { on: { BACK: { target: 'credentials', actions: 'clearError' } } },
    resetForm: { on: { SUBMIT_RESET: { target: 'resetting', actions: 'clearError' } } },
    resetting: {
      invoke: {
        src: 'resetPassword',
        input: ({ context, event }) => ({
          client: context.client,
          token: context.token,
          password: event.type === 'SUBMIT_RESET' ? event.password : '',
        }),
        onDone: [
          { guard: { type: 'gotSession', params: ({ event }) => event.output }, target: 'signedIn' },
          {
            guard: { type: 'needsPhone', params: ({ event }) => event.output },
            target: 'phoneEntry',
            actions: { type: 'rememberMember', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'smsAlreadySent', params: ({ event }) => event.output },
            target: 'codeEntry',
            actions: { type: 'rememberMember', params: ({ event }) => event.output },
          },
          { target: 'sendingSms', actions: { type: 'rememberMember', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'resetForm',
          actions: { type: 'setStepError', params: refusedWith(appConfig.messages.invalidResetToken) },
        },
      },
    },
    signedIn: { type: 'final' },
  },
})
