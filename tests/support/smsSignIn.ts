import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { identitySettings as s } from '../../src/server/identity'

/** One call of the bundled identity provider's SDK routes (`/sdk/v1/…`): its status and `data`. */
export type SdkCall = (
  route: string,
  body: object,
) => Promise<{ status: number; data: Record<string, string> }>

const basic = `Basic ${Buffer.from(`${s.publicToken}:${s.publicToken}`).toString('base64')}`
const headers = { authorization: basic, 'content-type': 'application/json' }

/** The SDK routes of an app in this process (Fastify inject). */
export function sdkInject(app: FastifyInstance): SdkCall {
  return async (route, payload) => {
    const res = await app.inject({ method: 'POST', url: `/sdk/v1${route}`, headers, payload })
    return { status: res.statusCode, data: (res.json() as { data?: Record<string, string> }).data ?? {} }
  }
}

/** The SDK routes of a server over HTTP (a child process, another server). */
export function sdkFetch(baseUrl: string): SdkCall {
  return async (route, body) => {
    const res = await fetch(`${baseUrl}/sdk/v1${route}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    })
    return { status: res.status, data: ((await res.json()) as { data?: Record<string, string> }).data ?? {} }
  }
}

export interface SmsSignIn {
  /** The statuses of the three steps: password, SMS send, SMS code. */
  statuses: number[]
  /** The session token and JWT ('' when a step failed). */
  token: string
  jwt: string
  ms: number
  /** The first failed step and its status, when one failed. */
  failure?: string
}

/**
 * A member's whole sign-in as the browser makes it: password, then the SMS code, which the
 * bundled provider writes to `<dataDir>/outbox/sms.jsonl` (the newest code for this member, so
 * concurrent sign-ins of other members do not mix).
 */
export async function signInBySms(
  sdk: SdkCall,
  who: { email: string; password: string; dataDir: string },
): Promise<SmsSignIn> {
  const t0 = performance.now()
  const org = s.organizationId
  const login = await sdk('/b2b/passwords/authenticate', {
    organization_id: org,
    email_address: who.email,
    password: who.password,
  })
  const ist = login.data.intermediate_session_token ?? ''
  const member = login.data.member_id ?? ''
  const send = await sdk('/b2b/otps/sms/send', {
    organization_id: org,
    member_id: member,
    intermediate_session_token: ist,
  })
  const done = await sdk('/b2b/otps/sms/authenticate', {
    organization_id: org,
    member_id: member,
    intermediate_session_token: ist,
    code: newestCode(who.dataDir, member),
  })
  const steps = [
    ['password', login],
    ['sms send', send],
    ['sms code', done],
  ] as const
  const failed = steps.find(([, r]) => r.status !== 200)
  return {
    statuses: steps.map(([, r]) => r.status),
    token: failed ? '' : (done.data.session_token ?? ''),
    jwt: failed ? '' : (done.data.session_jwt ?? ''),
    ms: performance.now() - t0,
    ...(failed ? { failure: `${failed[0]} ${failed[1].status}` } : {}),
  }
}

/** The newest SMS code the provider sent to this member ('' when none). */
function newestCode(dataDir: string, member: string): string {
  const file = path.join(dataDir, 'outbox', 'sms.jsonl')
  if (!fs.existsSync(file)) return ''
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').reverse()
  for (const line of lines) {
    const m = JSON.parse(line) as { memberId?: string; code: string }
    if (m.memberId === member) return m.code
  }
  return ''
}
