import type { JWTVerifyGetKey } from 'jose'
import { identityStorage, type AccountsSource } from '../store/identityStorage'
import type { IdentityStore } from '../store/identityStore'
import type { IdentityTokenStore } from '../store/identityTokenStore'
import type { MachineClientStore } from '../store/machineClientStore'
import { createDelivery, type Delivery } from './delivery'
import { loadSigningKey, storeKeySet, type SigningKey } from './sessionJwt'
import { identitySettings, type IdentitySettings } from './settings'
import { createThrottle, type Throttle } from './throttle'

export interface AuditFields {
  /** The administrator who acted on another member's account (member administration). */
  actorId?: string | null
  memberId?: string | null
  subject?: string | null
  ip?: string | null
  detail?: Record<string, unknown>
}

/** Everything an identity flow needs; HTTP-free so the CLI and tests use it directly. */
export interface IdentityContext {
  settings: IdentitySettings
  members: IdentityStore
  tokens: IdentityTokenStore
  /** Machine clients (Stytch M2M, machineClients.ts). */
  machines: MachineClientStore
  throttle: Throttle
  /** Counts SMS codes sent per member and per phone number in a one-hour window. */
  smsQuota: Throttle
  /** Counts reset e-mails per e-mail address from all networks (`resetMail.perEmailMinutes` windows). */
  resetQuota: Throttle
  key: SigningKey
  /** Verification keys of session JWTs: `key.jwks`, re-read from the store on an unknown key id. */
  jwtKeys: JWTVerifyGetKey
  delivery: Delivery
  /** Base URL for links in e-mails (EMBERLINE_PUBLIC_URL); null = the request's own origin if allowed. */
  publicUrl: string | null
  /** Hosts (host[:port], lower case) whose origin may be used for links without EMBERLINE_PUBLIC_URL. */
  allowedHosts: string[]
  now: () => number
  audit(event: string, fields?: AuditFields): Promise<void>
  /**
   * Work a flow does not wait for (a reset e-mail): tracked so shutdown can wait for it, and
   * never an unhandled rejection (its own failures are audited by the flow; a failure of that
   * audit, e.g. the store already closed, is dropped here).
   */
  background(task: Promise<unknown>): void
  /**
   * Resolves once every background task has settled, or after `maxWaitMs` (a gateway that never
   * answers must not hold a shutdown; webhooks time out after 10 s of their own).
   */
  settle(maxWaitMs?: number): Promise<void>
}

export interface IdentityContextOptions {
  /** The app's store (members, tokens) or, in the users CLI and tests, an accounts database. */
  db: AccountsSource
  dataDir: string
  env?: Record<string, string | undefined>
  settings?: IdentitySettings
  now?: () => number
  delivery?: Delivery
  print?: (line: string) => void
}

/**
 * EMBERLINE_SMS_MAX_PER_HOUR (a positive integer) replaces both hourly SMS caps of config
 * (`otp.maxSendsPerMemberHour`, `otp.maxSendsPerPhoneHour`) without a rebuild: for a test or
 * training server where one member signs in many times an hour.
 */
function withSmsCap(settings: IdentitySettings, env: Record<string, string | undefined>): IdentitySettings {
  const raw = env.EMBERLINE_SMS_MAX_PER_HOUR
  const cap = raw !== undefined && /^[1-9]\d{0,6}$/.test(raw) ? Number(raw) : null
  if (cap === null) return settings
  return { ...settings, otp: { ...settings.otp, maxSendsPerMemberHour: cap, maxSendsPerPhoneHour: cap } }
}

export async function createIdentityContext(opts: IdentityContextOptions): Promise<IdentityContext> {
  const env = opts.env ?? process.env
  const settings = withSmsCap(opts.settings ?? identitySettings, env)
  const now = opts.now ?? Date.now
  const { members, tokens, machines } = identityStorage(opts.db)
  const pending = new Set<Promise<unknown>>()
  const key = await loadSigningKey(members, now())
  return {
    settings,
    members,
    tokens,
    machines,
    throttle: createThrottle(tokens, settings.throttle),
    smsQuota: createThrottle(tokens, { windowMinutes: 60, lockMinutes: 60 }),
    resetQuota: createThrottle(tokens, {
      windowMinutes: settings.resetMail.perEmailMinutes,
      lockMinutes: settings.resetMail.perEmailMinutes,
    }),
    key,
    jwtKeys: storeKeySet(members, key),
    delivery: opts.delivery ?? createDelivery({ dataDir: opts.dataDir, env, print: opts.print, now }),
    publicUrl: env.EMBERLINE_PUBLIC_URL ? env.EMBERLINE_PUBLIC_URL.replace(/\/+$/, '') : null,
    allowedHosts: (env.EMBERLINE_ALLOWED_HOSTS ?? '')
      .split(/[\s,]+/)
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    now,
    async audit(event, fields = {}) {
      await members.audit({
        at: now(),
        event,
        actorId: fields.actorId ?? null,
        memberId: fields.memberId ?? null,
        subject: fields.subject ?? null,
        ip: fields.ip ?? null,
        detail: fields.detail ?? {},
      })
    },
    background(task) {
      const tracked: Promise<unknown> = task
        .catch(() => undefined)
        .finally(() => {
          pending.delete(tracked)
        })
      pending.add(tracked)
    },
    async settle(maxWaitMs = Infinity) {
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<void>((resolve) => {
        if (Number.isFinite(maxWaitMs)) timer = setTimeout(resolve, maxWaitMs)
      })
      const all = (async () => {
        while (pending.size > 0) await Promise.all([...pending])
      })()
      await Promise.race([all, deadline])
      clearTimeout(timer)
    },
  }
}
